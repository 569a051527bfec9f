"""Keras layers, losses, metrics and schedules against real TensorFlow 2.21 / Keras 3:
forward values and gradients (inputs and weights) from data/keras_goldens.json, made by
data/make_goldens.py from the cases in data/cases.json."""

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg

DATA = pathlib.Path(__file__).parent / "data"
CASES = json.loads((DATA / "cases.json").read_text())
GOLDEN = json.loads((DATA / "keras_goldens.json").read_text())


def _input(spec, seed):
    rng = np.random.default_rng(seed)
    if spec.get("int"):
        return rng.integers(0, spec["int"], size=spec["shape"]).astype("int32")
    return rng.normal(size=spec["shape"]).astype("float32")


def _close(actual, expected, what, atol=2e-6):
    np.testing.assert_allclose(
        np.asarray(actual), np.asarray(expected, np.float32), rtol=1e-5, atol=atol, err_msg=what
    )


@pytest.mark.parametrize(
    "index", range(len(CASES["layers"])), ids=[c["name"] for c in CASES["layers"]]
)
def test_layer_matches_keras(index):
    case, golden = CASES["layers"][index], GOLDEN["layers"][CASES["layers"][index]["name"]]
    layer = eval(case["layer"], {"layers": rg.keras.layers})
    inputs = [rg.constant(_input(spec, index + i)) for i, spec in enumerate(case["inputs"])]
    x = inputs if case.get("list_input") else inputs[0]
    args = inputs if case.get("positional") else [x]
    layer(*args)
    layer.set_weights([np.asarray(w, np.float32) for w in golden["weights"]])
    with rg.GradientTape(persistent=True) as tape:
        for t in inputs:
            if t.dtype.is_floating:
                tape.watch(t)
        out = layer(*args, **case.get("call", {}))
        loss = rg.reduce_sum(out * _upstream(out, index))
    _close(out, golden["output"], "output")
    for t, expected in zip(inputs, golden["input_grads"]):
        if expected is not None:
            _close(tape.gradient(loss, t), expected, "input gradient")
    grads = tape.gradient(loss, layer.trainable_weights)
    for g, expected in zip(grads, golden["weight_grads"]):
        _close(rg.convert_to_tensor(g), expected, "weight gradient", case.get("atol", 2e-6))
    for w, expected in zip(layer.weights, golden["weights_after"]):
        _close(w.numpy(), expected, f"weight {w.name} after the call")


def _upstream(out, index):
    return np.random.default_rng(index + 200).normal(size=out.shape).astype("float32")


@pytest.mark.parametrize(
    "index", range(len(CASES["losses"])), ids=[c["name"] for c in CASES["losses"]]
)
def test_loss_matches_keras(index):
    case, golden = CASES["losses"][index], GOLDEN["losses"][CASES["losses"][index]["name"]]
    y_true = np.asarray(case["y_true"], dtype=case.get("true_dtype", "float32"))
    y_pred = rg.constant(np.asarray(case["y_pred"], "float32"))
    loss = eval(case["loss"], {"losses": rg.keras.losses})
    kwargs = {}
    if case.get("weighted"):
        kwargs["sample_weight"] = np.asarray(golden["sample_weight"], np.float32)
    with rg.GradientTape() as tape:
        tape.watch(y_pred)
        value = loss(y_true, y_pred, **kwargs)
    _close(value, golden["value"], "loss")
    _close(tape.gradient(value, y_pred), golden["grad"], "gradient")


def _array(values):
    """A metric update's argument as an array: floats as float32, ints as int32."""
    array = np.asarray(values)
    return array.astype("float32" if array.dtype.kind == "f" else "int32")


@pytest.mark.parametrize("case", CASES["metrics"], ids=[c["name"] for c in CASES["metrics"]])
def test_metric_matches_keras(case):
    metric = eval(case["metric"], {"metrics": rg.keras.metrics})
    *results, after_reset = GOLDEN["metrics"][case["name"]]
    for update, expected in zip(case["updates"], results):
        metric.update_state(*(_array(a) for a in update))
        assert float(metric.result()) == pytest.approx(expected, rel=1e-6)
    metric.reset_state()
    assert float(metric.result()) == pytest.approx(after_reset, nan_ok=True)


@pytest.mark.parametrize("case", CASES["schedules"], ids=[c["name"] for c in CASES["schedules"]])
def test_schedule_matches_keras(case):
    schedule = eval(case["schedule"], {"schedules": rg.keras.optimizers.schedules})
    actual = [float(schedule(step)) for step in range(case["steps"])]
    np.testing.assert_allclose(actual, GOLDEN["schedules"][case["name"]], rtol=1e-6, atol=1e-9)
