"""Makes v1_optimizer_goldens.json: 20 steps of each TF1 optimizer on a small least-squares
problem, run by real TensorFlow (compat.v1, graph mode). Run with /work/tfenv/bin/python:

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/training/data/make_v1_optimizer_goldens.py
"""

import json
import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-1.0, 1.0, 0.75], [0.3, -0.2, 0.1]], np.float32)
Y = np.array([[1.0, -2.0], [0.5, 0.0], [-1.5, 1.0], [0.2, 0.3]], np.float32)
W0 = np.array([[0.1, -0.2], [0.3, 0.05], [-0.4, 0.25]], np.float32)
B0 = np.array([0.05, -0.1], np.float32)

CASES = {
    "sgd": ("GradientDescentOptimizer", {"learning_rate": 0.05}),
    "momentum": ("MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.9}),
    "nesterov": (
        "MomentumOptimizer",
        {"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True},
    ),
    "adam": ("AdamOptimizer", {}),
    "adam_custom": (
        "AdamOptimizer",
        {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6},
    ),
    "rmsprop": ("RMSPropOptimizer", {"learning_rate": 0.01}),
    "rmsprop_centered": (
        "RMSPropOptimizer",
        {"learning_rate": 0.01, "momentum": 0.5, "centered": True},
    ),
    "adagrad": ("AdagradOptimizer", {"learning_rate": 0.1}),
}


def run(cls, kwargs):
    tf.reset_default_graph()
    w = tf.Variable(W0, name="w")
    b = tf.Variable(B0, name="b")
    step = tf.train.get_or_create_global_step()
    loss = tf.reduce_sum(tf.square(tf.tanh(tf.matmul(X, w) + b) - Y))
    train = getattr(tf.train, cls)(**kwargs).minimize(loss, global_step=step)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(20):
            sess.run(train)
            wv, bv = sess.run([w, b])
            out.append([wv.tolist(), bv.tolist()])
        assert sess.run(step) == 20
    return out


goldens = {name: run(cls, kwargs) for name, (cls, kwargs) in CASES.items()}
path = pathlib.Path(__file__).with_name("v1_optimizer_goldens.json")
path.write_text(
    json.dumps({"cases": {k: [c, kw] for k, (c, kw) in CASES.items()}, "steps": goldens})
)
