"""Compares a committed notebook's outputs with a fresh run's, so that the
committed pictures and tables are what the checkout computes today.

    python3 notebooks/compare.py COMMITTED.ipynb EXECUTED.ipynb

Text outputs (printed streams, text/plain and text/html results) must be
equal after the scratch directory's and the checkout's paths are replaced by
placeholders; a picture must be a picture in both (its pixels depend on the
machine's fonts and matplotlib, so they are not compared). Exits 1 with the
first cells that differ, and says to rerun make.py.
"""
import json
import re
import sys

_SCRATCH = re.compile(r"/[^\s'\"]*pollfit-notebook-[^/\s'\"]+")
_STYLER_ID = re.compile(r"T_[0-9a-f]{5}")  # pandas' Styler names each table at random


def _norm(text, repo):
    text = _STYLER_ID.sub("T_id", _SCRATCH.sub("$WORK", text))
    if repo:
        text = text.replace(repo, "$REPO")
    return text


def _outputs(cell, repo):
    out = []
    for o in cell.get("outputs", []):
        kind = o["output_type"]
        if kind == "stream":
            out.append(("stream", o.get("name"), _norm("".join(o["text"]), repo)))
            continue
        data = o.get("data", {})
        if "image/png" in data or "image/svg+xml" in data:
            out.append((kind, "picture", ""))
            continue
        for mime in ("text/html", "text/plain"):
            if mime in data:
                out.append((kind, mime, _norm("".join(data[mime]), repo)))
                break
        if kind == "error":
            out.append(("error", o.get("ename"), o.get("evalue")))
    return out


def _clip(r, at, n=160):
    """r from a little before character at, at most n characters."""
    lo = max(0, at - 40)
    return ("…" if lo else "") + r[lo:lo + n] + ("…" if lo + n < len(r) else "")


def _repo(nb):
    """The checkout path a notebook printed in its first cell, or ""."""
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            m = re.search(r"pollfit from (\S+) - scratch", "".join(o.get("text", "")))
            if m:
                return m.group(1)
    return ""


def compare(committed, executed):
    a, b = (json.load(open(p)) for p in (committed, executed))
    ca = [c for c in a["cells"] if c["cell_type"] == "code"]
    cb = [c for c in b["cells"] if c["cell_type"] == "code"]
    if len(ca) != len(cb):
        return [f"{len(ca)} code cells committed, {len(cb)} run"]
    diffs = []
    for i, (x, y) in enumerate(zip(ca, cb)):
        ox, oy = _outputs(x, _repo(a)), _outputs(y, _repo(b))
        if ox != oy:
            first = "".join(x["source"]).splitlines()[:1]
            k = next((j for j, (p, q) in enumerate(zip(ox, oy)) if p != q), min(len(ox), len(oy)))
            was, now = (repr(o[k]) if k < len(o) else "(none)" for o in (ox, oy))
            at = next((j for j, (p, q) in enumerate(zip(was, now)) if p != q), 0)
            diffs.append(f"code cell {i + 1} ({first[0] if first else ''}), output {k + 1}, from character {at}:\n"
                         f"    committed {_clip(was, at)}\n    fresh     {_clip(now, at)}")
    return diffs


if __name__ == "__main__":
    diffs = compare(sys.argv[1], sys.argv[2])
    for d in diffs[:3]:
        print(d, file=sys.stderr)
    if diffs:
        print(f"compare: {sys.argv[1]}: {len(diffs)} cells differ from a fresh run: "
              "rerun PATH=/usr/bin:$PATH python3 notebooks/make.py and commit the notebooks", file=sys.stderr)
        sys.exit(1)
