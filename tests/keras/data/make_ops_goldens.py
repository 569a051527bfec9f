"""Makes ops_goldens.json: the values, dtypes and gradients of the ``keras.ops`` cases in
ops_cases.py, computed by Keras 3 on real TensorFlow 2.21.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/keras/data/make_ops_goldens.py
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow as tf
from tensorflow import keras

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

from ops_cases import CASES, make_inputs  # noqa: E402

ops = keras.ops


def _leaf(value):
    array = np.asarray(value)
    return {"value": array.tolist(), "dtype": str(array.dtype), "shape": list(array.shape)}


def run(index, case):
    name, expression, spec = case
    arrays = make_inputs(spec, index)
    inputs = {k: tf.constant(v) for k, v in arrays.items()}
    floats = [k for k, v in arrays.items() if v.dtype.kind == "f"]
    with tf.GradientTape(persistent=True) as tape:
        for k in floats:
            tape.watch(inputs[k])
        out = eval(expression, {"ops": ops, "K": keras.backend, "np": np, **inputs})
        leaves = [v for v in tf.nest.flatten(out)]
        rng = np.random.default_rng(index + 500)
        loss = None
        for leaf in leaves:
            if tf.is_tensor(leaf) and leaf.dtype.is_floating:
                up = rng.normal(size=leaf.shape).astype(leaf.dtype.as_numpy_dtype)
                term = tf.reduce_sum(tf.cast(leaf * up, tf.float64))
                loss = term if loss is None else loss + term
    golden = {"outputs": [_leaf(v) for v in leaves]}
    if not name.endswith("!") and loss is not None and floats:
        grads = tape.gradient(loss, [inputs[k] for k in floats])
        golden["grads"] = {
            k: None if g is None else np.asarray(tf.convert_to_tensor(g)).tolist()
            for k, g in zip(floats, grads)
        }
    return golden


goldens = {}
for i, case in enumerate(CASES):
    try:
        goldens[case[0]] = run(i, case)
    except Exception as e:  # a case TensorFlow refuses is recorded as its error
        goldens[case[0]] = {"error": type(e).__name__}
(HERE / "ops_goldens.json").write_text(json.dumps(goldens))
errors = [k for k, v in goldens.items() if "error" in v]
print("wrote", len(goldens), "cases;", "errors:", errors)
