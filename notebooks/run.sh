#!/bin/sh
# run.sh executes every notebook in this directory from a clean kernel,
# writing the executed copies to a temporary directory (the committed
# notebooks are left as they are), and fails if any cell fails, if a
# committed notebook's outputs differ from the fresh run's (compare.py),
# or if a notebook leaves its scratch directory behind.
#
# It needs jupyter nbconvert and a Python 3 kernel with pandas and
# matplotlib; on Debian: apt-get install jupyter-nbconvert
# python3-ipykernel python3-pandas python3-matplotlib. Debian's python3 is
# put first on PATH so that a pyenv or virtualenv python3 without those
# modules does not shadow it. Go must be on PATH (or in /usr/local/go/bin):
# each notebook builds pollfit from this checkout.
#
# Usage: notebooks/run.sh [NOTEBOOK.ipynb...]   (default: all of them)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/python3 ] && PATH=/usr/bin:$PATH
PATH=$PATH:/usr/local/go/bin
export PATH
if ! command -v jupyter >/dev/null 2>&1; then
	echo "run.sh: jupyter not found (apt-get install jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib)" >&2
	exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Each notebook's scratch directory, made by common.py under TMPDIR, must
# be gone when its kernel exits.
scratch=$(mktemp -d)
export TMPDIR="$scratch"
trap 'rm -rf "$out" "$scratch"' EXIT
if [ $# -eq 0 ]; then
	set -- "$here"/*.ipynb
fi
status=0
for nb in "$@"; do
	name=$(basename "$nb")
	start=$(date +%s)
	if jupyter nbconvert --to notebook --execute \
		--ExecutePreprocessor.timeout=600 \
		--ExecutePreprocessor.kernel_name=python3 \
		--output-dir "$out" "$nb" >"$out/$name.log" 2>&1; then
		if python3 "$here/compare.py" "$nb" "$out/$name"; then
			echo "ok   $name ($(($(date +%s) - start))s)"
		else
			echo "FAIL $name: its committed outputs are not a fresh run's" >&2
			status=1
		fi
	else
		echo "FAIL $name" >&2
		cat "$out/$name.log" >&2
		status=1
	fi
done
left=$(ls "$scratch")
if [ -n "$left" ]; then
	echo "FAIL: the notebooks left scratch files behind: $left" >&2
	status=1
fi
exit $status
