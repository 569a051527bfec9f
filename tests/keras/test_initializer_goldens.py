"""Keras initializers give Keras 3's exact values (TensorFlow backend): seeded
initializers, and the weights of models built after keras.utils.set_random_seed (goldens
from real Keras, made by data/make_initializer_goldens.py)."""

from __future__ import annotations

import json
import pathlib
import random

import numpy as np
import pytest

import retrograd as rg

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "data" / "initializer_goldens.json").read_text()
)
CASES = GOLDEN["initializers"]


def _label(case):
    return f"{case['name']}-{case['shape']}-{case['seed']}-{case['dtype']}-{len(case['kwargs'])}"


@pytest.mark.parametrize("case", CASES, ids=[_label(c) for c in CASES])
def test_seeded_initializer_gives_keras_values(case):
    init = getattr(rg.keras.initializers, case["name"])(seed=case["seed"], **case["kwargs"])
    out = init(case["shape"], dtype=case["dtype"])
    expected = np.asarray(case["values"], case["dtype"])
    assert out.dtype.name == case["dtype"] and out.shape.as_list() == case["shape"]
    if case["name"] == "Orthogonal":  # a QR factorisation: LAPACK's rounding, not Eigen's
        np.testing.assert_allclose(out.numpy().reshape(-1), expected, rtol=0, atol=2e-6)
    else:
        np.testing.assert_array_equal(out.numpy().reshape(-1), expected)
    again = init(case["shape"], dtype=case["dtype"]).numpy()
    np.testing.assert_array_equal(again, out.numpy())  # a seeded initializer repeats


@pytest.mark.parametrize("case", GOLDEN["built"], ids=lambda c: f"{c['model']}-{c['seed']}")
def test_models_built_after_set_random_seed_get_keras_weights(case):
    rg.keras.utils.set_random_seed(case["seed"])
    model = eval(GOLDEN["models"][case["model"]], {"keras": rg.keras})
    assert [w.shape.as_list() for w in model.weights] == case["shapes"]
    for weight, expected in zip(model.weights, case["weights"]):
        value = weight.numpy().reshape(-1)
        tol = 2e-6 if "recurrent" in weight.name else 0  # Orthogonal: a QR factorisation
        np.testing.assert_allclose(value, np.asarray(expected, np.float32), rtol=0, atol=tol)


def test_an_unseeded_initializer_takes_its_seed_from_python_random_once():
    random.seed(5)
    init = rg.keras.initializers.GlorotUniform()
    random.seed(5)
    assert init.seed == random.randint(1, 10**9)
    assert init.get_config()["seed"] is None
    np.testing.assert_array_equal(init((3, 2)).numpy(), init((3, 2)).numpy())


def test_seeds_are_ints():
    with pytest.raises(TypeError, match="seed must be an int"):
        rg.keras.initializers.HeNormal(seed=1.5)
