"""Makes keras_goldens.json: forward values and gradients of Keras layers, losses, metrics
and learning-rate schedules, computed by real TensorFlow 2.21 / Keras 3.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/keras/data/make_goldens.py
The cases are read from cases.json beside this script, which the tests read too.
"""

import json
import pathlib

import numpy as np
import tensorflow as tf

HERE = pathlib.Path(__file__).parent
CASES = json.loads((HERE / "cases.json").read_text())


def make_input(spec, seed):
    rng = np.random.default_rng(seed)
    if spec.get("int"):
        return rng.integers(0, spec["int"], size=spec["shape"]).astype("int32")
    return rng.normal(size=spec["shape"]).astype("float32")


def _to_last(t):
    """channels_first -> channels_last (TensorFlow's CPU convolutions refuse NCHW)."""
    return tf.transpose(t, [0, *range(2, t.shape.rank), 1])


def _to_first(t):
    return tf.transpose(t, [0, t.shape.rank - 1, *range(1, t.shape.rank - 1)])


def _listed(t):
    return None if t is None else t.numpy().tolist()


def layer_case(case, seed):
    # A case with "tf_layer" is a channels_first layer that Keras cannot run on a CPU: the
    # golden comes from the same layer in channels_last on transposed inputs and outputs.
    layer = eval(case.get("tf_layer", case["layer"]), {"layers": tf.keras.layers})
    move = "tf_layer" in case
    inputs = [tf.constant(make_input(spec, seed + i)) for i, spec in enumerate(case["inputs"])]
    x = inputs if case.get("list_input") else inputs[0]

    def arguments():  # "positional": separate arguments (MultiHeadAttention's query, value)
        return inputs if case.get("positional") else [_to_last(x) if move else x]

    layer(*arguments())  # builds
    rng = np.random.default_rng(seed + 100)
    weights = []
    for w in layer.weights:
        value = (rng.normal(size=w.shape) * 0.5).astype("float32")
        if "variance" in w.path:
            value = rng.uniform(0.5, 1.5, size=w.shape).astype("float32")
        weights.append(value)
    layer.set_weights(weights)
    with tf.GradientTape(persistent=True) as tape:
        for t in inputs:
            if t.dtype.is_floating:
                tape.watch(t)
        out = layer(*arguments(), **case.get("call", {}))
        out = _to_first(out) if move else out
        upstream = np.random.default_rng(seed + 200).normal(size=out.shape).astype("float32")
        loss = tf.reduce_sum(out * upstream)
    input_grads = [  # None where TensorFlow gives none (an input the output ignores)
        _listed(tape.gradient(loss, t)) if t.dtype.is_floating else None for t in inputs
    ]
    weight_grads = [
        None if g is None else tf.convert_to_tensor(g).numpy().tolist()
        for g in tape.gradient(loss, [w.value for w in layer.trainable_weights])
    ]
    return {
        "weights": [w.tolist() for w in weights],
        "output": out.numpy().tolist(),
        "input_grads": input_grads,
        "weight_grads": weight_grads,
        "weights_after": [w.numpy().tolist() for w in layer.weights],
    }


def loss_case(case, seed):
    rng = np.random.default_rng(seed)
    y_true = np.asarray(case["y_true"], dtype=case.get("true_dtype", "float32"))
    y_pred = tf.constant(np.asarray(case["y_pred"], "float32"))
    loss = eval(case["loss"], {"losses": tf.keras.losses})
    kwargs = {}
    if case.get("weighted"):
        kwargs["sample_weight"] = rng.uniform(0.5, 2.0, size=len(y_true)).astype("float32")
    with tf.GradientTape() as tape:
        tape.watch(y_pred)
        value = loss(y_true, y_pred, **kwargs)
    return {
        "value": value.numpy().tolist(),
        "grad": tape.gradient(value, y_pred).numpy().tolist(),
        "sample_weight": kwargs.get("sample_weight", np.zeros(0)).tolist(),
    }


def _array(values):
    """A metric update's argument as an array: floats as float32, ints as int32."""
    array = np.asarray(values)
    return array.astype("float32" if array.dtype.kind == "f" else "int32")


def metric_case(case):
    metric = eval(case["metric"], {"metrics": tf.keras.metrics})
    results = []
    for update in case["updates"]:
        metric.update_state(*(_array(a) for a in update))
        results.append(float(metric.result()))
    metric.reset_state()
    results.append(float(metric.result()))  # after reset_state
    return results


def schedule_case(case):
    schedule = eval(case["schedule"], {"schedules": tf.keras.optimizers.schedules})
    return [float(schedule(step)) for step in range(case["steps"])]


goldens = {
    "layers": {c["name"]: layer_case(c, i) for i, c in enumerate(CASES["layers"])},
    "losses": {c["name"]: loss_case(c, i) for i, c in enumerate(CASES["losses"])},
    "metrics": {c["name"]: metric_case(c) for c in CASES["metrics"]},
    "schedules": {c["name"]: schedule_case(c) for c in CASES["schedules"]},
}
(HERE / "keras_goldens.json").write_text(json.dumps(goldens))
print("wrote", sum(len(v) for v in goldens.values()), "cases")
