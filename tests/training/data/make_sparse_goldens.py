"""Goldens for IndexedSlices (tests/training/test_indexed_slices.py), from real TensorFlow.

Run with TensorFlow's venv (never imported by the tests):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/training/data/make_sparse_goldens.py
Writes sparse_goldens.json next to this file: gradient types and values of gather and
embedding lookups (eager tape, tf.function, tf.gradients in a graph), and 20 optimizer steps
on sparse gradients with repeated indices (Keras SGD/Adam/Adagrad/RMSprop, TF1
GradientDescent/Adagrad/Adam/Momentum/RMSProp).
"""

import json
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
PARAMS = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [-1.0, 0.5]]
# Index lists with repeats; each step uses one (cycling), so some rows are untouched.
STEP_IDS = [[2, 0, 2], [1, 1], [3, 2, 3, 3], [0]]
WEIGHTS = [[0.5, -1.5], [2.0, 0.25]]


def describe(g):
    if g is None:
        return None
    if isinstance(g, tf.IndexedSlices):
        return {
            "type": "IndexedSlices",
            "values": np.asarray(g.values).tolist(),
            "indices": np.asarray(g.indices).tolist(),
            "dense_shape": np.asarray(g.dense_shape).tolist(),
            "dtype": g.dtype.name,
        }
    return {"type": "Tensor", "value": np.asarray(g).tolist()}


# Gradient cases: name -> a loss of params (p) built from gathers; TF's gradient type/value.
def cases():
    w = tf.constant(WEIGHTS)
    return {
        "gather": lambda p: tf.reduce_sum(tf.gather(p, [2, 0, 2]) * 2.0),
        "gather_matrix_ids": lambda p: tf.reduce_sum(tf.gather(p, [[1, 0], [3, 3]]) ** 2),
        "two_gathers": lambda p: (
            tf.reduce_sum(tf.gather(p, [1])) + tf.reduce_sum(tf.gather(p, [2, 2]) * 3.0)
        ),
        "gather_and_dense": lambda p: tf.reduce_sum(tf.gather(p, [1])) + tf.reduce_sum(p * p),
        "gather_axis1": lambda p: tf.reduce_sum(tf.gather(p, [1, 1], axis=1)),
        "gather_of_product": lambda p: tf.reduce_sum(tf.gather(p * 2.0, [3, 1])),
        "embedding_lookup": lambda p: tf.reduce_sum(
            tf.matmul(tf.nn.embedding_lookup(p, [[0, 3], [3, 3]]), w) ** 2
        ),
        "gather_int64_ids": lambda p: tf.reduce_sum(
            tf.gather(p, tf.constant([3, 0, 3], tf.int64)) * tf.constant([[1.0, 2.0]])
        ),
    }


def gradient_goldens():
    out = {}
    for name, loss in cases().items():
        entry = {}
        v = tf.Variable(PARAMS)
        with tf.GradientTape() as tape:
            y = loss(v)
        entry["tape_variable"] = describe(tape.gradient(y, v))
        c = tf.constant(PARAMS)
        with tf.GradientTape() as tape:
            tape.watch(c)
            y = loss(c)
        entry["tape_constant"] = describe(tape.gradient(y, c))

        @tf.function
        def in_function(loss=loss, v=v):
            with tf.GradientTape() as tape:
                y = loss(v)
            g = tape.gradient(y, v)
            kind = "IndexedSlices" if isinstance(g, tf.IndexedSlices) else "Tensor"
            return kind, tf.convert_to_tensor(g)

        kind, dense = in_function()
        entry["function"] = {"type": kind.numpy().decode(), "dense": dense.numpy().tolist()}
        with tf.Graph().as_default():
            gv = tf.compat.v1.Variable(PARAMS)
            (g,) = tf.gradients(cases()[name](gv), [gv])
            kind = "IndexedSlices" if isinstance(g, tf.IndexedSlices) else "Tensor"
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                dense = sess.run(tf.convert_to_tensor(g))
            entry["graph"] = {"type": kind, "dense": dense.tolist()}
        # Second order: the gradient of the sum of the squared (dense) first gradient.
        c = tf.constant(PARAMS)
        with tf.GradientTape() as outer:
            outer.watch(c)
            with tf.GradientTape() as inner:
                inner.watch(c)
                y = loss(c)
            g = tf.convert_to_tensor(inner.gradient(y, c))
            z = tf.reduce_sum(g * g * c)
        entry["second_order"] = describe(outer.gradient(z, c))
        out[name] = entry
    return out


def sparse_grad(step, var_value):
    ids = STEP_IDS[step % len(STEP_IDS)]
    values = np.array(
        [[np.sin(step + k + 1.0), np.cos(2.0 * step + k)] for k in range(len(ids))],
        np.float32,
    )
    return values, np.array(ids, np.int32)


KERAS = {
    "SGD": lambda: tf.keras.optimizers.SGD(0.1),
    "SGD_momentum": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9),
    "SGD_nesterov": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    "Adam": lambda: tf.keras.optimizers.Adam(0.05),
    "Adam_amsgrad": lambda: tf.keras.optimizers.Adam(0.05, amsgrad=True),
    "Adagrad": lambda: tf.keras.optimizers.Adagrad(0.2),
    "RMSprop": lambda: tf.keras.optimizers.RMSprop(0.02),
    "RMSprop_centered_momentum": lambda: tf.keras.optimizers.RMSprop(
        0.02, momentum=0.5, centered=True
    ),
}

V1 = {
    "GradientDescent": lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1),
    "Momentum": lambda: tf.compat.v1.train.MomentumOptimizer(0.05, 0.9),
    "Momentum_nesterov": lambda: tf.compat.v1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "Adagrad": lambda: tf.compat.v1.train.AdagradOptimizer(0.2),
    "Adam": lambda: tf.compat.v1.train.AdamOptimizer(0.05),
    "RMSProp": lambda: tf.compat.v1.train.RMSPropOptimizer(0.02, momentum=0.5),
    "RMSProp_centered": lambda: tf.compat.v1.train.RMSPropOptimizer(
        0.02, momentum=0.5, centered=True
    ),
}

STEPS = 20


def keras_goldens():
    out = {}
    for name, make in KERAS.items():
        opt = make()
        v = tf.Variable(PARAMS)
        trace = []
        for step in range(STEPS):
            values, ids = sparse_grad(step, v.numpy())
            opt.apply_gradients([(tf.IndexedSlices(values, ids, tf.constant([4, 2])), v)])
            trace.append(v.numpy().tolist())
        out[name] = trace
    return out


def v1_goldens():
    out = {}
    for name, make in V1.items():
        trace = []
        with tf.Graph().as_default():
            v = tf.compat.v1.Variable(PARAMS, name="p")
            values = tf.compat.v1.placeholder(tf.float32, [None, 2])
            ids = tf.compat.v1.placeholder(tf.int32, [None])
            opt = make()
            train = opt.apply_gradients([(tf.IndexedSlices(values, ids, tf.constant([4, 2])), v)])
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                for step in range(STEPS):
                    vals, idx = sparse_grad(step, None)
                    sess.run(train, {values: vals, ids: idx})
                    trace.append(sess.run(v).tolist())
        out[name] = trace
    return out


def end_to_end_goldens():
    """An embedding trained from its own (sparse) gradients: TF1 Momentum by minimize in a
    graph, Keras Adam from a tape."""
    ids = [[0, 3], [3, 3]]
    out = {}
    with tf.Graph().as_default():
        table = tf.compat.v1.Variable(PARAMS, name="table")
        w = tf.constant(WEIGHTS)
        loss = tf.reduce_sum(tf.matmul(tf.nn.embedding_lookup(table, ids), w) ** 2)
        train = tf.compat.v1.train.MomentumOptimizer(0.01, 0.9).minimize(loss)
        trace = []
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(train)
                trace.append(sess.run(table).tolist())
        out["v1_momentum_minimize"] = trace
    table = tf.Variable(PARAMS)
    w = tf.constant(WEIGHTS)
    opt = tf.keras.optimizers.Adam(0.05)
    trace = []
    for _ in range(STEPS):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(tf.nn.embedding_lookup(table, ids), w) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [table]), [table]))
        trace.append(table.numpy().tolist())
    out["keras_adam_tape"] = trace
    return out


def main():
    goldens = {
        "params": PARAMS,
        "step_ids": STEP_IDS,
        "steps": STEPS,
        "gradients": gradient_goldens(),
        "keras": keras_goldens(),
        "v1": v1_goldens(),
        "end_to_end": end_to_end_goldens(),
    }
    with open(os.path.join(HERE, "sparse_goldens.json"), "w") as f:
        json.dump(goldens, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
