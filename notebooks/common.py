"""Helpers shared by the notebooks: find the checkout, build pollfit into a
temporary directory, run it and parse its output, and format log-time axes.

Each notebook runs `from common import *` after building nothing else: the
notebooks read only data the repository ships (testdata/) or generates
(pollfit gen), and write only into a temporary directory, removed when
the kernel exits.
"""
import atexit
import io
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import pandas as pd

__all__ = ["REPO", "WORK", "pollfit", "pollfit_json", "pollfit_csv", "log_time_axis",
           "fmt_age", "pd", "plt", "json", "Path"]


def _repo_root():
    p = Path.cwd().resolve()
    while not (p / "go.mod").exists():
        if p.parent == p:
            raise RuntimeError("not inside the pollfit checkout")
        p = p.parent
    return p


REPO = _repo_root()
WORK = Path(tempfile.mkdtemp(prefix="pollfit-notebook-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)  # the scratch files go with the kernel
_GO = shutil.which("go") or "/usr/local/go/bin/go"
_BIN = WORK / "pollfit"
subprocess.run([_GO, "build", "-o", str(_BIN), "./cmd/pollfit"], cwd=REPO, check=True)

plt.rcParams.update({"figure.figsize": (8, 4), "figure.dpi": 100, "axes.grid": True,
                     "grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False})


def pollfit(*args):
    """Runs pollfit with args (from the repository root) and returns its
    standard output; warnings on standard error are printed; a failure
    raises with pollfit's message."""
    r = subprocess.run([str(_BIN), *map(str, args)], cwd=REPO, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"pollfit {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}")
    if r.stderr:
        print(r.stderr, end="")
    return r.stdout


def pollfit_json(*args):
    """Runs pollfit and parses its standard output as JSON."""
    return json.loads(pollfit(*args))


def pollfit_csv(*args):
    """Runs pollfit and parses its standard output as CSV."""
    return pd.read_csv(io.StringIO(pollfit(*args)))


def fmt_age(sec):
    """An age in seconds as a short duration: 500ms, 1.5s, 90s, 2m, 2m5s,
    2h36m, 34h36m, 3d (close to how pollfit's pictures write them)."""
    if sec <= 0:
        return "0"
    if sec < 1:
        return f"{sec * 1000:.3g}ms"
    for name, size in (("d", 86400), ("h", 3600), ("m", 60)):
        v = sec / size
        if v >= 1 and abs(v - round(v)) < 1e-9 and (v < 100 or name == "d"):
            return f"{round(v)}{name}"
    if sec < 100:
        return f"{sec:.3g}s"
    if sec < 3600:
        m, s = divmod(round(sec), 60)
        return f"{m}m{s}s"
    if sec < 100 * 3600:
        h, m = divmod(round(sec / 60), 60)
        return f"{h}h{m}m" if m else f"{h}h"
    d, h = divmod(round(sec / 3600), 24)
    return f"{d}d{h}h" if h else f"{d}d"


_NICE = [1e-3, 1e-2, 0.1, 1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400]
_MINOR = [2, 5, 20, 30, 120, 300, 1200, 1800, 2 * 3600, 3 * 3600, 12 * 3600, 2 * 86400, 3 * 86400]


def log_time_axis(ax, axis="x"):
    """Makes an axis a log-time axis with ticks at readable durations:
    1s 10s 1m 10m 1h (pollfit's own pictures use the same ticks)."""
    a = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    lo, hi = (ax.get_xlim() if axis == "x" else ax.get_ylim())
    major = [t for t in _NICE if lo <= t <= hi]
    minor = [t for t in _MINOR if lo <= t <= hi]
    if len(major) < 3:
        major, minor = sorted(major + minor), []
    a.set_major_locator(mticker.FixedLocator(major))
    a.set_minor_locator(mticker.FixedLocator(minor))
    a.set_major_formatter(mticker.FuncFormatter(lambda v, _: fmt_age(v)))
    a.set_minor_formatter(mticker.NullFormatter())
