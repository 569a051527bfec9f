"""retrograd's public names against stored results of TensorFlow 2.21 (issue 22): every case
of tests/api/data/cases_*.py runs here with ``tf`` bound to retrograd and must give what
TensorFlow gave (data/<module>_goldens.json, made by data/make_goldens.py on TensorFlow):
the same dtypes, shapes and structure, the same values (floats to a tolerance of their
precision), and the same error types."""

from __future__ import annotations

import importlib
import json
import linecache
import math
import pathlib
import sys
import textwrap

import numpy as np
import pytest

import retrograd

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
from golden_format import encode  # noqa: E402

MODULES = sorted(p.stem for p in DATA.glob("cases_*.py"))
TOLERANCE = {"float16": 2e-3, "float32": 2e-5, "complex64": 2e-5}


def _cases() -> list[tuple[str, str, str, dict]]:
    found = []
    for module in MODULES:
        cases = importlib.import_module(module).CASES
        goldens = json.loads((DATA / f"{module}_goldens.json").read_text())
        for name, code in cases.items():
            found.append((module, name, code, goldens.get(name)))
    return found


CASES = _cases()


def _float(v):
    if isinstance(v, dict):
        return complex(_float(v["re"]), _float(v["im"]))
    return float(v) if isinstance(v, str) else v


def _values(data):
    walk = lambda v: [walk(x) for x in v] if isinstance(v, list) else _float(v)  # noqa: E731
    return walk(data)


def assert_same(got, want, where: str, rtol: float | None) -> None:
    assert got.keys() == want.keys(), f"{where}: retrograd gave {got}, TensorFlow {want}"
    if "array" in want:
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
        if want["dtype"] in ("string", "bool") or want["dtype"].startswith(("int", "uint")):
            assert got["array"] == want["array"], f"{where}: {got['array']} != {want['array']}"
            return
        tolerance = rtol if rtol is not None else TOLERANCE.get(want["dtype"], 1e-9)
        a = np.array(_values(got["array"]), dtype=complex).reshape(got["shape"])
        b = np.array(_values(want["array"]), dtype=complex).reshape(want["shape"])
        np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance, err_msg=where)
        return
    for kind in ("list", "tuple"):
        if kind in want:
            assert len(got[kind]) == len(want[kind]), f"{where}: {got} != {want}"
            for k, (g, w) in enumerate(zip(got[kind], want[kind])):
                assert_same(g, w, f"{where}[{k}]", rtol)
            return
    if "dict" in want:
        assert got["dict"].keys() == want["dict"].keys(), f"{where}: {got} != {want}"
        for k in want["dict"]:
            assert_same(got["dict"][k], want["dict"][k], f"{where}[{k!r}]", rtol)
        return
    if "py" in want and isinstance(want["py"], float) and isinstance(got["py"], float):
        assert math.isclose(got["py"], want["py"], rel_tol=rtol or 1e-6, abs_tol=rtol or 1e-6)
        return
    assert got == want, f"{where}: retrograd gave {got}, TensorFlow {want}"


@pytest.mark.parametrize(
    "module, name, code, golden", CASES, ids=[f"{m}::{n}" for m, n, _, _ in CASES]
)
def test_case_gives_what_tensorflow_gave(module, name, code, golden):
    assert golden is not None, f"{name} has no golden: run data/make_goldens.py {module}"
    namespace = {"tf": retrograd, "np": np}
    source = textwrap.dedent(code)
    where = f"{module}.{name}"  # (AutoGraph reads the source where inspect finds it)
    linecache.cache[where] = (len(source), None, source.splitlines(True), where)
    try:
        exec(compile(source, where, "exec"), namespace)
    except Exception as error:
        names = [c.__name__ for c in type(error).__mro__]
        assert "error" in golden, f"retrograd raised {error!r}; TensorFlow gave {golden}"
        assert golden["error"] in names, (
            f"retrograd raised {error!r}; TensorFlow raised {golden['error']}: {golden['message']}"
        )
        return
    finally:
        if not retrograd.executing_eagerly():
            retrograd.compat.v1.enable_eager_execution()
    assert "error" not in golden, (
        f"TensorFlow raised {golden['error']}: {golden['message']}; retrograd gave "
        f"{namespace['result']!r}"
    )
    assert_same(encode(namespace["result"]), golden, name, namespace.get("rtol"))
