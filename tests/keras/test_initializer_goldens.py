"""Keras initializers give Keras 3's values (TensorFlow backend): seeded initializers, and
the weights of models built after keras.utils.set_random_seed (goldens from real Keras,
made by data/make_initializer_goldens.py). Uniform ones bit for bit; normal ones within the
ulps of TensorFlow's normal draws that ops/stateless_random_ops.py documents."""

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
NORMAL = {"GlorotNormal", "HeNormal", "LecunNormal", "RandomNormal", "TruncatedNormal"}


def _assert_normal_draw(values, expected, mean=0.0):
    """``values`` within TensorFlow's normal draw (``expected``) scaled and shifted: the draw
    itself is within 3 ulps (3 eps |rnd|, tests/ops/test_stateless_random_ops.py), carried
    through ``rnd * stddev + mean`` (two roundings): eps (4 |expected - mean| + |expected|)."""
    eps = np.finfo(expected.dtype).eps
    bound = eps * (4 * np.abs(expected - np.asarray(mean, expected.dtype)) + np.abs(expected))
    assert (np.abs(values - expected) <= bound).all(), (values, expected)


def _is_normal(name, kwargs):
    return name in NORMAL or kwargs.get("distribution", "").endswith("normal")


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
    elif _is_normal(case["name"], case["kwargs"]):
        _assert_normal_draw(out.numpy().reshape(-1), expected, case["kwargs"].get("mean", 0.0))
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
        value, expected = weight.numpy().reshape(-1), np.asarray(expected, np.float32)
        initializer = type(_initializer_of(model, weight)).__name__
        if initializer == "Orthogonal":  # a QR factorisation: LAPACK's rounding, not Eigen's
            np.testing.assert_allclose(value, expected, rtol=0, atol=2e-6)
        elif _is_normal(initializer, {}):  # (these layers' normal initializers: mean 0)
            _assert_normal_draw(value, expected)
        else:
            np.testing.assert_array_equal(value, expected)


def _initializer_of(model, weight):
    """The initializer of the layer's attribute that made ``weight`` (``kernel`` ->
    ``kernel_initializer``, ``recurrent_kernel`` -> ``recurrent_initializer``, ...)."""
    (layer,) = [layer for layer in model.layers if any(w is weight for w in layer.weights)]
    attribute = weight.name.split(":")[0].split("/")[-1].replace("_kernel", "")
    return getattr(layer, attribute + "_initializer")


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
