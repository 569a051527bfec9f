"""Realistic TensorFlow 1 programs (tests/programs/tf1/) run unchanged under
``python -m retrograd run --tf1`` and print what real TensorFlow printed for them
(goldens made by tf1/make_goldens.py), numbers within 1e-5."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from tests.programs.running import numbers, run_programs, words

PROGRAMS = pathlib.Path(__file__).parent / "tf1"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if p.name != "make_goldens.py")


def test_there_are_at_least_twelve_programs_each_with_a_golden():
    assert len(NAMES) >= 12
    assert all((PROGRAMS / "goldens" / f"{name}.txt").exists() for name in NAMES)


@pytest.fixture(scope="module")
def results():
    """Every program's run, started together (each in its own process)."""
    return run_programs([PROGRAMS / f"{name}.py" for name in NAMES], tf1=True)


@pytest.mark.parametrize("name", NAMES)
def test_program_prints_what_tensorflow_printed(name, results):
    result = results[name]
    assert result.returncode == 0, result.stderr
    golden = (PROGRAMS / "goldens" / f"{name}.txt").read_text()
    assert words(result.stdout) == words(golden), result.stdout
    got, want = numbers(result.stdout), numbers(golden)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
