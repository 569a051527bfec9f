"""``keras.ops`` against Keras 3 on real TensorFlow 2.21: every case of data/ops_cases.py
gives the values, dtypes, shapes and input gradients stored in data/ops_goldens.json (made
by data/make_ops_goldens.py on TensorFlow)."""

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.keras import ops
from tests.keras.data.ops_cases import CASES, make_inputs

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "ops_goldens.json").read_text())


def _close(actual, expected, what):
    expected = np.asarray(expected, dtype=np.asarray(actual).dtype if expected else None)
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64) if np.asarray(actual).dtype.kind in "fc" else actual,
        expected,
        rtol=2e-5,
        atol=2e-6,
        err_msg=what,
    )


def _flatten(out):
    return rg.nest.flatten(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_op_matches_keras(index):
    name, expression, spec = CASES[index]
    golden = GOLDEN[name]
    arrays = make_inputs(spec, index)
    inputs = {k: rg.constant(v) for k, v in arrays.items()}
    floats = [k for k, v in arrays.items() if v.dtype.kind == "f"]
    with rg.GradientTape(persistent=True) as tape:
        for k in floats:
            tape.watch(inputs[k])
        out = eval(expression, {"ops": ops, "K": rg.keras.backend, "np": np, **inputs})
        leaves = _flatten(out)
        rng = np.random.default_rng(index + 500)
        loss = None
        for leaf in leaves:
            if rg.is_tensor(leaf) and leaf.dtype.is_floating:
                up = rng.normal(size=leaf.shape).astype(leaf.dtype.as_numpy_dtype)
                term = rg.reduce_sum(rg.cast(leaf * up, rg.float64))
                loss = term if loss is None else loss + term
    assert len(leaves) == len(golden["outputs"]), f"{name}: {len(leaves)} outputs"
    for k, (leaf, expected) in enumerate(zip(leaves, golden["outputs"])):
        value = np.asarray(leaf.numpy() if rg.is_tensor(leaf) else leaf)
        assert str(value.dtype) == expected["dtype"], f"{name} output {k}: dtype"
        assert list(value.shape) == expected["shape"], f"{name} output {k}: shape"
        _close(value, expected["value"], f"{name} output {k}")
    for k, expected in golden.get("grads", {}).items():
        grad = tape.gradient(loss, inputs[k])
        if expected is None:
            assert grad is None or not np.any(rg.convert_to_tensor(grad).numpy()), name
        else:
            _close(rg.convert_to_tensor(grad).numpy(), expected, f"{name}: gradient of {k}")
