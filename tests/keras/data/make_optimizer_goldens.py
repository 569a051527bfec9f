"""Makes optimizer_goldens.json: the variables after each step of the optimizer cases in
optimizer_cases.py (its precision cases in float64 and float32 too), and the optimizer's
``iterations``, on Keras 3 / TensorFlow 2.21.

    TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python tests/keras/data/make_optimizer_goldens.py
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow as tf
from tensorflow.keras import optimizers

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

from optimizer_cases import (  # noqa: E402
    CASES,
    INF_STEPS,
    PRECISION_CASES,
    PRECISION_STEPS,
    gradients,
    initial_values,
    precision_gradients,
)

goldens = {}
for index, (name, expression, steps) in enumerate(CASES):
    variables = [tf.Variable(v) for v in initial_values()]
    optimizer = eval(expression, {"optimizers": optimizers})
    history = []
    for step in range(steps):
        grads = [tf.constant(g) for g in gradients(index, step)]
        if step in INF_STEPS.get(name, ()):
            grads[0] = grads[0] * np.float32("inf")
        if name == "sgd_loss_scale_factor":
            grads = [g * 4.0 for g in grads]  # the gradients of the scaled loss
        optimizer.apply_gradients(zip(grads, variables))
        history.append([v.numpy().tolist() for v in variables])
    goldens[name] = {"history": history, "iterations": int(optimizer.iterations.numpy())}
for index, (name, expression, dtype) in enumerate(PRECISION_CASES):
    variables = [tf.Variable(v.astype(dtype)) for v in initial_values()]
    optimizer = eval(expression, {"optimizers": optimizers})
    history = []
    for step in range(PRECISION_STEPS):
        grads = [tf.constant(g) for g in precision_gradients(index, step, dtype)]
        optimizer.apply_gradients(zip(grads, variables))
        history.append([v.numpy().tolist() for v in variables])
    goldens[name] = {"history": history, "iterations": int(optimizer.iterations.numpy())}
(HERE / "optimizer_goldens.json").write_text(json.dumps(goldens))
print("wrote", len(goldens), "cases")
