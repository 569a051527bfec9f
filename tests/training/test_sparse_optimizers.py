"""Optimizers applying sparse gradients (IndexedSlices with repeated rows) as TensorFlow does:
Keras 3 optimizers eagerly and inside a function, TF1 optimizers in a graph and eagerly;
20 steps against goldens from real TensorFlow (tests/training/data/make_sparse_goldens.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import retrograd as rg

GOLDENS = json.loads((Path(__file__).parent / "data" / "sparse_goldens.json").read_text())
PARAMS, STEP_IDS, STEPS = GOLDENS["params"], GOLDENS["step_ids"], GOLDENS["steps"]

KERAS = {
    "SGD": lambda: rg.keras.optimizers.SGD(0.1),
    "SGD_momentum": lambda: rg.keras.optimizers.SGD(0.05, momentum=0.9),
    "SGD_nesterov": lambda: rg.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    "Adam": lambda: rg.keras.optimizers.Adam(0.05),
    "Adam_amsgrad": lambda: rg.keras.optimizers.Adam(0.05, amsgrad=True),
    "Adagrad": lambda: rg.keras.optimizers.Adagrad(0.2),
    "RMSprop": lambda: rg.keras.optimizers.RMSprop(0.02),
    "RMSprop_centered_momentum": lambda: rg.keras.optimizers.RMSprop(
        0.02, momentum=0.5, centered=True
    ),
}

V1 = {
    "GradientDescent": lambda: rg.compat.v1.train.GradientDescentOptimizer(0.1),
    "Momentum": lambda: rg.compat.v1.train.MomentumOptimizer(0.05, 0.9),
    "Momentum_nesterov": lambda: rg.compat.v1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "Adagrad": lambda: rg.compat.v1.train.AdagradOptimizer(0.2),
    "Adam": lambda: rg.compat.v1.train.AdamOptimizer(0.05),
    "RMSProp": lambda: rg.compat.v1.train.RMSPropOptimizer(0.02, momentum=0.5),
    "RMSProp_centered": lambda: rg.compat.v1.train.RMSPropOptimizer(
        0.02, momentum=0.5, centered=True
    ),
}


def sparse_grad(step):
    """The generator's gradient of step ``step``: float32 slices at repeated rows."""
    ids = STEP_IDS[step % len(STEP_IDS)]
    values = np.array(
        [[np.sin(step + k + 1.0), np.cos(2.0 * step + k)] for k in range(len(ids))],
        np.float32,
    )
    return values, np.array(ids, np.int32)


def _slices(values, ids):
    return rg.IndexedSlices(rg.constant(values), rg.constant(ids), rg.constant([4, 2]))


def _close(trace, name, golden):
    np.testing.assert_allclose(trace, golden, rtol=1e-6, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("name", list(KERAS))
def test_keras_optimizer_steps_on_sparse_gradients_match_tensorflow(name):
    opt, v = KERAS[name](), rg.Variable(PARAMS)
    trace = []
    for step in range(STEPS):
        opt.apply_gradients([(_slices(*sparse_grad(step)), v)])
        trace.append(v.numpy())
    _close(trace, name, GOLDENS["keras"][name])


@pytest.mark.parametrize("name", ["SGD_momentum", "Adam", "Adagrad", "RMSprop"])
def test_keras_optimizer_steps_on_sparse_gradients_inside_a_function(name):
    opt, v = KERAS[name](), rg.Variable(PARAMS)

    @rg.function
    def apply(values, ids):
        opt.apply_gradients([(rg.IndexedSlices(values, ids, rg.constant([4, 2])), v)])

    trace = []
    for step in range(STEPS):
        values, ids = sparse_grad(step)
        apply(rg.constant(values), rg.constant(ids))
        trace.append(v.numpy())
    _close(trace, name, GOLDENS["keras"][name])


def test_keras_adam_squares_each_slice_not_the_sum_of_a_repeated_row():
    # Keras 3 squares an IndexedSlices slice by slice: v gets (1-beta_2)(a² + b²), not (a+b)².
    opt, v = rg.keras.optimizers.Adam(0.1), rg.Variable([[0.0], [0.0]])
    opt.apply_gradients([(_slices_of([[1.0], [2.0]], [1, 1], [2, 1]), v)])
    (velocity,) = [slot for _, name, slot in opt.slot_variables() if name == "v"]
    np.testing.assert_allclose(velocity.numpy(), [[0.0], [0.001 * 5.0]], rtol=1e-6)


def _slices_of(values, ids, shape):
    return rg.IndexedSlices(rg.constant(values), rg.constant(ids), rg.constant(shape))


def test_keras_optimizer_refuses_sparse_gradients_of_another_shape():
    opt, v = rg.keras.optimizers.Adam(), rg.Variable(PARAMS)
    with pytest.raises(ValueError, match=r"IndexedSlices\) has dense shape"):
        opt.apply_gradients([(_slices_of([[1.0, 2.0]], [0], [5, 2]), v)])


@pytest.mark.parametrize("name", list(V1))
def test_v1_optimizer_steps_on_sparse_gradients_match_tensorflow_in_a_graph(name):
    graph = rg.Graph()
    with graph.as_default():
        v = rg.compat.v1.Variable(PARAMS, name="p")
        values = rg.compat.v1.placeholder(rg.float32, [None, 2])
        ids = rg.compat.v1.placeholder(rg.int32, [None])
        slices = rg.IndexedSlices(values, ids, rg.constant([4, 2]))
        train = V1[name]().apply_gradients([(slices, v)])
        trace = []
        with rg.compat.v1.Session() as sess:
            sess.run(rg.compat.v1.global_variables_initializer())
            for step in range(STEPS):
                vals, idx = sparse_grad(step)
                sess.run(train, {values: vals, ids: idx})
                trace.append(sess.run(v))
    _close(trace, name, GOLDENS["v1"][name])


@pytest.mark.parametrize("name", list(V1))
def test_v1_optimizer_steps_on_sparse_gradients_match_tensorflow_eagerly(name):
    opt, v = V1[name](), rg.Variable(PARAMS)
    trace = []
    for step in range(STEPS):
        opt.apply_gradients([(_slices(*sparse_grad(step)), v)])
        trace.append(v.numpy())
    _close(trace, name, GOLDENS["v1"][name])


def test_an_embedding_trained_from_tape_gradients_gets_sparse_updates():
    # The gradient a tape gives for a gather is an IndexedSlices, applied as such.
    opt, table = rg.keras.optimizers.Adagrad(0.2), rg.Variable(PARAMS)
    with rg.GradientTape() as tape:
        loss = rg.reduce_sum(rg.gather(table, [1, 1, 3]) ** 2)
    (g,) = tape.gradient(loss, [table])
    assert isinstance(g, rg.IndexedSlices)
    opt.apply_gradients([(g, table)])
    untouched = table.numpy()[[0, 2]]
    np.testing.assert_array_equal(untouched, np.array(PARAMS, np.float32)[[0, 2]])


def _embedding_loss(table):
    ids = [[0, 3], [3, 3]]
    w = rg.constant([[0.5, -1.5], [2.0, 0.25]])
    return rg.reduce_sum(rg.matmul(rg.nn.embedding_lookup(table, ids), w) ** 2)


def test_v1_momentum_minimizes_an_embedding_in_a_graph_as_tensorflow_does():
    graph = rg.Graph()
    with graph.as_default():
        table = rg.compat.v1.Variable(PARAMS, name="table")
        train = rg.compat.v1.train.MomentumOptimizer(0.01, 0.9).minimize(_embedding_loss(table))
        trace = []
        with rg.compat.v1.Session() as sess:
            sess.run(rg.compat.v1.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(train)
                trace.append(sess.run(table))
    _close(trace, "v1 momentum", GOLDENS["end_to_end"]["v1_momentum_minimize"])


def test_keras_adam_trains_an_embedding_from_tape_gradients_as_tensorflow_does():
    table, opt = rg.Variable(PARAMS), rg.keras.optimizers.Adam(0.05)
    trace = []
    for _ in range(STEPS):
        with rg.GradientTape() as tape:
            loss = _embedding_loss(table)
        opt.apply_gradients(zip(tape.gradient(loss, [table]), [table]))
        trace.append(table.numpy())
    _close(trace, "keras adam", GOLDENS["end_to_end"]["keras_adam_tape"])
