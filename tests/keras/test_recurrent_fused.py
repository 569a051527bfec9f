"""Keras' LSTM and GRU run one fused op (ops/rnn_ops.py) where Keras would run cuDNN, and the
step loop elsewhere: both give the same outputs, states and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.keras.src.layers import recurrent
from retrograd.ops import rnn_ops

keras = rg.keras


def _randomize(layer, seed):
    rng = np.random.default_rng(seed)
    for v in layer.weights:
        v.assign(rng.normal(0.0, 0.5, tuple(v.shape)).astype("float32"))


def _run(layer, x, fused, monkeypatch, **call):
    """Outputs and gradients (of every output, for the weights and the inputs) of a call,
    on the fused path or the loop."""
    with monkeypatch.context() as patch:
        if not fused:
            patch.setattr(recurrent._Recurrent, "_fusable", lambda self, inputs: False)
        with rg.GradientTape() as tape:
            tape.watch(x)
            out = layer(x, **call)
            outs = out if isinstance(out, list) else [out]
            loss = sum(rg.reduce_sum(rg.sin(o) * (k + 1)) for k, o in enumerate(outs))
        grads = tape.gradient(loss, [x, *layer.trainable_weights])
    return [o.numpy() for o in outs], [g.numpy() for g in grads]


def _same(a, b):
    for p, q in zip(a[0] + a[1], b[0] + b[1]):
        np.testing.assert_allclose(p, q, rtol=2e-5, atol=2e-6)


OPTIONS = [
    {},
    {"return_sequences": True},
    {"return_state": True},
    {"return_sequences": True, "return_state": True, "go_backwards": True},
    {"use_bias": False},
    {"unit_forget_bias": False},
    {"reset_after": True, "dropout": 0.3},
]


@pytest.mark.parametrize("layer_type", ["LSTM", "GRU"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_fused_path_gives_the_loops_outputs_and_gradients(layer_type, options, monkeypatch):
    options = dict(options)
    if layer_type == "LSTM":
        options.pop("reset_after", None)
    else:
        options.pop("unit_forget_bias", None)
    x = rg.constant(np.random.default_rng(1).normal(size=(3, 6, 4)).astype("float32"))
    training = {"training": True} if options.get("dropout") else {}
    results = []
    for fused in (True, False):  # (two layers with one seed: the same dropout masks)
        layer = getattr(keras.layers, layer_type)(5, seed=3, **options)
        layer(x)
        _randomize(layer, 2)
        assert layer._fusable(x)
        results.append(_run(layer, x, fused, monkeypatch, **training))
    fused, loop = results
    _same(fused, loop)


@pytest.mark.parametrize("layer_type", ["LSTM", "GRU"])
def test_an_all_true_mask_takes_the_loop_and_agrees_with_the_fused_path(layer_type, monkeypatch):
    x = rg.constant(np.random.default_rng(5).normal(size=(2, 4, 3)).astype("float32"))
    layer = getattr(keras.layers, layer_type)(3, return_sequences=True)
    layer(x)
    _randomize(layer, 6)
    masked = _run(layer, x, True, monkeypatch, mask=rg.ones([2, 4], rg.bool))
    fused = _run(layer, x, True, monkeypatch)
    _same(masked, fused)


def test_a_padding_mask_keeps_the_states_as_the_loop_does():
    x = np.random.default_rng(7).normal(size=(2, 5, 3)).astype("float32")
    x[1, 3:] = 0.0
    model = keras.Sequential([keras.Input((5, 3)), keras.layers.Masking(0.0), keras.layers.LSTM(4)])
    padded = model(x).numpy()
    short = model(x[1:, :3]).numpy()  # the second sequence without its padding
    np.testing.assert_allclose(padded[1], short[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "layer",
    [
        lambda: keras.layers.LSTM(3, activation="relu"),
        lambda: keras.layers.LSTM(3, recurrent_dropout=0.2),
        lambda: keras.layers.GRU(3, reset_after=False),
        lambda: keras.layers.GRU(3, recurrent_activation="hard_sigmoid"),
        lambda: keras.layers.LSTM(3, unroll=True),
        lambda: keras.layers.SimpleRNN(3),
    ],
)
def test_other_configurations_take_the_loop(layer):
    made = layer()
    x = rg.ones([2, 3, 2])
    made(x)
    assert not made._fusable(x)


@pytest.mark.parametrize("layer_type", ["LSTM", "GRU"])
def test_stateful_layers_carry_the_same_states(layer_type, monkeypatch):
    x = rg.constant(np.random.default_rng(8).normal(size=(2, 3, 4)).astype("float32"))
    results = []
    for fused in (True, False):
        layer = getattr(keras.layers, layer_type)(3, stateful=True, return_state=True)
        layer(x)
        _randomize(layer, 9)
        layer.reset_state()
        first = _run(layer, x, fused, monkeypatch)
        second = _run(layer, x, fused, monkeypatch)
        results.append((first[0] + second[0], first[1] + second[1]))
    _same(*results)


def test_traced_fit_runs_the_fused_op_with_an_unknown_batch(monkeypatch):
    rng = np.random.default_rng(10)
    x, y = rng.normal(size=(20, 7, 3)).astype("float32"), rng.normal(size=(20, 1))
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((7, 3)), keras.layers.GRU(4), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(x, y.astype("float32"), batch_size=8, epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))

    seen = []
    original = rnn_ops.block_gru

    @rg.function(input_signature=[rg.TensorSpec([None, 7, 3], rg.float32)])
    def predict(batch):
        return model(batch)

    monkeypatch.setattr(
        rnn_ops, "block_gru", lambda *a, **k: seen.append(a[0].shape.as_list()) or original(*a, **k)
    )
    out = predict(x[:5])
    assert seen == [[7, None, 3]] and out.shape.as_list() == [5, 1]


@pytest.mark.parametrize("layer_type", ["LSTM", "GRU"])
def test_mixed_precision_layers_run_the_fused_op_in_float16(layer_type, monkeypatch):
    x = np.random.default_rng(11).normal(size=(2, 5, 3)).astype("float32")
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        layer = getattr(keras.layers, layer_type)(4)
        fused = layer(x)
        with monkeypatch.context() as patch:
            patch.setattr(recurrent._Recurrent, "_fusable", lambda self, inputs: False)
            loop = layer(x)
    finally:
        keras.mixed_precision.set_global_policy(None)  # (back to following floatx)
    assert fused.dtype == rg.float16 and loop.dtype == rg.float16
    np.testing.assert_allclose(fused.numpy(), loop.numpy(), atol=2e-3)
