"""The op table on the strict device: every ``Case`` row of tests/ops runs with its inputs on
strict arrays (``tf.device("/device:STRICT:0")``), which refuse implicit conversion to NumPy
and NumPy operands as CuPy's arrays do. Forward values are compared, as host copies, with
the NumPy references in 64 and 32 bits, and every output must live on the strict device;
gradients are checked against finite differences at the row's order (the tape's gradients
computed on the strict device). A kernel or rule that coerces to NumPy, or creates a host
array and mixes it in, fails here.

``RETROGRAD_TABLE_DEVICE`` names another device to run the table on, where one is present:
``RETROGRAD_TABLE_DEVICE=/GPU:0 python -m pytest tests/backends/test_strict_op_table.py``
runs it on CuPy arrays (a device that is absent fails the run, rather than soft placement
quietly testing the CPU)."""

from __future__ import annotations

import importlib
import os
import pathlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.core import records
from tests.backends import strict_array
from tests.ops.table import Case, check_gradient, in_precision

DEVICE = os.environ.get("RETROGRAD_TABLE_DEVICE", "/device:STRICT:0")
OPS = pathlib.Path(__file__).resolve().parent.parent / "ops"


def _rows() -> list[tuple[str, Case]]:
    """Every Case row of the op table's modules, once each (by identity), with its module."""
    seen: set[int] = set()
    rows = []
    for path in sorted(OPS.glob("test_*.py")):
        module = importlib.import_module(f"tests.ops.{path.stem}")
        for case in getattr(module, "CASES", None) or []:
            if isinstance(case, Case) and id(case) not in seen:
                seen.add(id(case))
                rows.append((path.stem.removeprefix("test_"), case))
    return rows


ROWS = _rows()
IDS = [f"{module}:{case.id}" for module, case in ROWS]
FORWARD = [(row, name) for row, name in zip(ROWS, IDS) if row[1].reference is not None]


@pytest.fixture(autouse=True, scope="module")
def _strict_device():
    with strict_array.installed():
        yield


@pytest.fixture(scope="module")
def placed() -> str:
    """The full name of the device the table runs on (which must be present)."""
    with rg.device(DEVICE):
        name = rg.constant(0.0).device
    wanted = rg.DeviceSpec.from_string(DEVICE).device_type
    assert name.split("device:")[-1].split(":")[0] == wanted, f"{DEVICE} is not present here"
    return name


@pytest.fixture(autouse=True)
def _records_drop_every_unread_value(monkeypatch):
    monkeypatch.setattr(records, "LEAN_BYTES", 0)  # (as tests/ops/conftest.py)


def test_the_table_is_collected():
    assert len(ROWS) > 900, len(ROWS)


@pytest.mark.parametrize(
    "module, case", [row for row, _ in FORWARD], ids=[name for _, name in FORWARD]
)
def test_forward_on_strict_arrays(module, case, placed):
    args = case.inputs()
    for bits, tol in ((64, 1e-12), (32, 1e-5)):
        inputs = [a.astype(in_precision(a.dtype.kind, bits)) for a in args]
        with rg.device(DEVICE):
            tensors = [rg.constant(a) for a in inputs]
            got = case.fn(*tensors)
        expected = case.reference(*inputs)
        for g, e in zip(rg.nest.flatten(got), rg.nest.flatten(expected)):
            assert g.device == placed, f"{case.id}: a result on {g.device}"
            assert g.dtype == in_precision(np.asarray(e).dtype.kind, bits), case.id
            np.testing.assert_allclose(g.numpy(), e, rtol=tol, atol=tol, err_msg=case.id)


@pytest.mark.parametrize("module, case", ROWS, ids=IDS)
def test_gradient_on_strict_arrays(module, case, placed):
    with rg.device(DEVICE):
        check_gradient(case)
