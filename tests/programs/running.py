"""Running a TensorFlow program file under ``python -m retrograd run`` in a subprocess, and
comparing printed numbers with a tolerance. With ``on_device=True`` the program runs under
``python -m tests.backends.run_on_device`` instead: ``retrograd run --device KIND`` on the
device kind under test (tests/backends/target.py)."""

from __future__ import annotations

import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf|nan")


def _command(path: pathlib.Path, tf1: bool, on_device: bool = False) -> list[str]:
    launcher = ["tests.backends.run_on_device"] if on_device else ["retrograd", "run"]
    return [sys.executable, "-m", *launcher, *(["--tf1"] if tf1 else []), str(path)]


def _env() -> dict:
    path = os.pathsep.join([str(SRC), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


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


def run_on_device(
    programs: list[tuple[pathlib.Path, bool]], workers: int
) -> dict[pathlib.Path, subprocess.CompletedProcess]:
    """Runs each ``(path, tf1)`` on the device kind under test, ``workers`` at a time (each
    in its own process, from the program's folder), by path."""

    def one(program: tuple[pathlib.Path, bool]) -> subprocess.CompletedProcess:
        path, tf1 = program
        return subprocess.run(
            _command(path.resolve(), tf1, on_device=True),
            capture_output=True,
            text=True,
            env=_env(),
            cwd=path.parent,
            timeout=300,
        )

    with ThreadPoolExecutor(workers) as pool:
        return dict(zip([p for p, _ in programs], pool.map(one, programs)))


def numbers(text: str) -> np.ndarray:
    """Every number printed in ``text`` (inf and nan included), in order."""
    return np.array([float(v) for v in NUMBER.findall(text)])


def words(text: str) -> str:
    """``text`` with each number as ``#`` and no whitespace: what must match exactly (NumPy
    pads and wraps arrays by the width of their numbers, which may differ in the last
    digit)."""
    return "".join(NUMBER.sub("#", text).split())
