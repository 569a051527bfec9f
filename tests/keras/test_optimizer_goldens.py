"""Keras optimizers (formulas and options: weight decay, clipping, moving averages, gradient
accumulation, loss scaling, schedules) step by step against Keras 3 on TensorFlow: the
goldens of data/optimizer_goldens.json, made by data/make_optimizer_goldens.py."""

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.keras import optimizers
from tests.keras.data.optimizer_cases import (
    CASES,
    INF_STEPS,
    PRECISION_CASES,
    PRECISION_STEPS,
    gradients,
    initial_values,
    precision_gradients,
)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "optimizer_goldens.json").read_text())


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_optimizer_matches_keras(index):
    name, expression, steps = CASES[index]
    variables = [rg.Variable(v) for v in initial_values()]
    optimizer = eval(expression, {"optimizers": optimizers})
    for step in range(steps):
        grads = [rg.constant(g) for g in gradients(index, step)]
        if step in INF_STEPS.get(name, ()):
            grads[0] = grads[0] * np.float32("inf")
        if name == "sgd_loss_scale_factor":
            grads = [g * 4.0 for g in grads]
        optimizer.apply_gradients(zip(grads, variables))
        for variable, expected in zip(variables, GOLDEN[name]["history"][step]):
            np.testing.assert_allclose(
                variable.numpy(), expected, rtol=2e-6, atol=1e-6, err_msg=f"{name} step {step}"
            )
    assert int(optimizer.iterations.numpy()) == GOLDEN[name]["iterations"]


PRECISION = {"float64": 1e-14, "float32": 1e-7}


@pytest.mark.parametrize("index", range(len(PRECISION_CASES)), ids=[c[0] for c in PRECISION_CASES])
def test_optimizer_arithmetic_is_keras_at_the_precision_of_the_dtype(index):
    name, expression, dtype = PRECISION_CASES[index]
    variables = [rg.Variable(v.astype(dtype)) for v in initial_values()]
    optimizer = eval(expression, {"optimizers": optimizers})
    for step in range(PRECISION_STEPS):
        grads = [rg.constant(g) for g in precision_gradients(index, step, dtype)]
        optimizer.apply_gradients(zip(grads, variables))
        for variable, expected in zip(variables, GOLDEN[name]["history"][step]):
            assert variable.dtype.name == dtype
            np.testing.assert_allclose(
                variable.numpy(),
                expected,
                rtol=PRECISION[dtype],
                atol=PRECISION[dtype],
                err_msg=f"{name} step {step}",
            )
