"""Running a TensorFlow program file under ``python -m retrograd run`` in a subprocess, and
comparing printed numbers with a tolerance."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import numpy as np

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf|nan")


def run_program(path: pathlib.Path, tf1: bool) -> subprocess.CompletedProcess:
    """Runs ``path`` with ``tensorflow`` aliased to retrograd (TF1 graph mode with ``tf1``)."""
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "retrograd", "run", *(["--tf1"] if tf1 else []), str(path)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def numbers(text: str) -> np.ndarray:
    """Every number printed in ``text`` (inf and nan included), in order."""
    return np.array([float(v) for v in NUMBER.findall(text)])


def words(text: str) -> str:
    """``text`` with each number as ``#`` and no whitespace: what must match exactly (NumPy
    pads and wraps arrays by the width of their numbers, which may differ in the last
    digit)."""
    return "".join(NUMBER.sub("#", text).split())
