"""The real programs (tests/programs: TensorFlow 2, TensorFlow 1 and the seeds) on the device
under test (tests/backends/target.py: the strict non-NumPy array type, or the kind
``RETROGRAD_TEST_DEVICE`` names): each runs under ``retrograd run --device KIND`` — every
tensor it makes from host data lives there — and must print what TensorFlow printed, the
same goldens and tolerances as the CPU runs. A kernel, layer, optimizer or graph path that
coerces a device array to NumPy (or mixes in a host array) fails its program here.

The programs run in subprocesses, two at a time (CI has two cores)."""

from __future__ import annotations

import os
import pathlib

import numpy as np
import pytest

from tests.programs.running import numbers, run_on_device, words
from tests.programs.test_seed_programs import CASES as SEED_CASES

PROGRAMS = pathlib.Path(__file__).resolve().parent.parent / "programs"
WORKERS = int(os.environ.get("RETROGRAD_TEST_WORKERS", "2"))


def _corpus(folder: str) -> list[str]:
    return sorted(p.stem for p in (PROGRAMS / folder).glob("*.py") if p.name != "make_goldens.py")


TF2, TF1 = _corpus("tf2"), _corpus("tf1")
SEEDS = {case[0]: case for case in SEED_CASES}


@pytest.fixture(scope="module")
def results():
    """Every program's run on the device, by path."""
    programs = [(PROGRAMS / "tf2" / f"{name}.py", False) for name in TF2]
    programs += [(PROGRAMS / "tf1" / f"{name}.py", True) for name in TF1]
    programs += [(PROGRAMS / "seeds" / name, tf1) for name, tf1, *_ in SEED_CASES]
    return run_on_device(programs, WORKERS)


def _matches(result, golden: str, tolerance: float) -> None:
    assert result.returncode == 0, result.stderr[-4000:]
    assert words(result.stdout) == words(golden), f"\n{result.stdout}\n--- golden ---\n{golden}"
    got, want = numbers(result.stdout), numbers(golden)
    assert got.shape == want.shape, f"\n{result.stdout}\n--- golden ---\n{golden}"
    np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


def test_every_program_of_the_corpus_is_run():
    assert len(TF2) >= 12 and len(TF1) >= 12 and len(SEEDS) >= 5


@pytest.mark.parametrize("name", TF2)
def test_tf2_program_on_the_device(name, results):
    golden = (PROGRAMS / "tf2" / "goldens" / f"{name}.txt").read_text()
    _matches(results[PROGRAMS / "tf2" / f"{name}.py"], golden, 1e-5)


@pytest.mark.parametrize("name", TF1)
def test_tf1_program_on_the_device(name, results):
    golden = (PROGRAMS / "tf1" / "goldens" / f"{name}.txt").read_text()
    _matches(results[PROGRAMS / "tf1" / f"{name}.py"], golden, 1e-5)


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_program_on_the_device(name, results):
    _, _, printed, stream, tolerance = SEEDS[name]
    result = results[PROGRAMS / "seeds" / name]
    assert result.returncode == 0, result.stderr[-4000:]
    out = getattr(result, stream)
    if tolerance == 0.0:
        assert out == printed
        return
    assert words(out) == words(printed)
    np.testing.assert_allclose(numbers(out), numbers(printed), rtol=tolerance, atol=tolerance)
