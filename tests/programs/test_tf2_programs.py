"""Realistic TensorFlow 2 programs (tests/programs/tf2/) run unchanged under
``python -m retrograd run`` and print what real TensorFlow 2.21 printed (goldens made by
tf2/make_goldens.py on TensorFlow): numbers agree to 1e-5, all other text exactly."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

import retrograd

HERE = pathlib.Path(__file__).parent / "tf2"
PROGRAMS = sorted(p.stem for p in HERE.glob("*.py") if p.name != "make_goldens.py")
SRC = str(pathlib.Path(retrograd.__file__).parent.parent)
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _split(text: str) -> tuple[list[str], list[float]]:
    """The text with every number replaced by a marker, and the numbers."""
    return NUMBER.sub("#", text).split(), [float(n) for n in NUMBER.findall(text)]


def test_there_are_at_least_twelve_programs():
    assert len(PROGRAMS) >= 12
    for name in PROGRAMS:
        assert (HERE / "goldens" / f"{name}.txt").is_file(), f"{name} has no golden"


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_tensorflow(name):
    result = subprocess.run(
        [sys.executable, "-m", "retrograd", "run", str(HERE / f"{name}.py")],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        cwd=HERE,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    golden = (HERE / "goldens" / f"{name}.txt").read_text()
    words, numbers = _split(result.stdout)
    golden_words, golden_numbers = _split(golden)
    assert words == golden_words, f"\n{result.stdout}\n--- TensorFlow printed ---\n{golden}"
    assert numbers == pytest.approx(golden_numbers, rel=1e-5, abs=1e-5), (
        f"\n{result.stdout}\n--- TensorFlow printed ---\n{golden}"
    )
