"""Running a TensorFlow program file under ``python -m retrograd run`` in a subprocess, and
comparing printed numbers with a tolerance."""

from __future__ import annotations

import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys

import numpy as np

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf|nan")


def _command(path: pathlib.Path, tf1: bool) -> list[str]:
    return [sys.executable, "-m", "retrograd", "run", *(["--tf1"] if tf1 else []), str(path)]


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def run_program(path: pathlib.Path, tf1: bool) -> subprocess.CompletedProcess:
    """Runs ``path`` with ``tensorflow`` aliased to retrograd (TF1 graph mode with ``tf1``)."""
    return subprocess.run(
        _command(path, tf1), capture_output=True, text=True, env=_env(), timeout=120
    )


def run_programs(paths: list[pathlib.Path], tf1: bool) -> dict[str, subprocess.CompletedProcess]:
    """Runs every program (each in its own process, as ``run_program``), by stem: as many at
    once as there are CPUs, so that each one's time limit counts its own run, not a wait
    behind dozens of others on a small machine."""
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        done = pool.map(lambda p: run_program(p, tf1), paths)
        return {p.stem: result for p, result in zip(paths, done)}


def numbers(text: str) -> np.ndarray:
    """Every number printed in ``text`` (inf and nan included), in order."""
    return np.array([float(v) for v in NUMBER.findall(text)])


def words(text: str) -> str:
    """``text`` with each number as ``#`` and no whitespace: what must match exactly (NumPy
    pads and wraps arrays by the width of their numbers, which may differ in the last
    digit)."""
    return "".join(NUMBER.sub("#", text).split())
