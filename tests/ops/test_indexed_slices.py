"""IndexedSlices: gather's gradient type and values against TensorFlow's goldens (eager tape,
inside a function, tf.gradients in a graph, second order), conversion to dense wherever a
tensor is expected, and how sparse parts add up."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import retrograd as rg

GOLDENS = json.loads(
    (Path(__file__).parents[1] / "training" / "data" / "sparse_goldens.json").read_text()
)
PARAMS = GOLDENS["params"]
WEIGHTS = [[0.5, -1.5], [2.0, 0.25]]

# The same losses as tests/training/data/make_sparse_goldens.py.
CASES = {
    "gather": lambda p: rg.reduce_sum(rg.gather(p, [2, 0, 2]) * 2.0),
    "gather_matrix_ids": lambda p: rg.reduce_sum(rg.gather(p, [[1, 0], [3, 3]]) ** 2),
    "two_gathers": lambda p: (
        rg.reduce_sum(rg.gather(p, [1])) + rg.reduce_sum(rg.gather(p, [2, 2]) * 3.0)
    ),
    "gather_and_dense": lambda p: rg.reduce_sum(rg.gather(p, [1])) + rg.reduce_sum(p * p),
    "gather_axis1": lambda p: rg.reduce_sum(rg.gather(p, [1, 1], axis=1)),
    "gather_of_product": lambda p: rg.reduce_sum(rg.gather(p * 2.0, [3, 1])),
    "embedding_lookup": lambda p: rg.reduce_sum(
        rg.matmul(rg.nn.embedding_lookup(p, [[0, 3], [3, 3]]), rg.constant(WEIGHTS)) ** 2
    ),
    "gather_int64_ids": lambda p: rg.reduce_sum(
        rg.gather(p, rg.constant([3, 0, 3], rg.int64)) * rg.constant([[1.0, 2.0]])
    ),
}


def _dense_of(golden):
    if golden["type"] == "Tensor":
        return np.array(golden["value"])
    dense = np.zeros(golden["dense_shape"])
    np.add.at(dense, golden["indices"], np.array(golden["values"]))
    return dense


def _kind(g):
    return "IndexedSlices" if isinstance(g, rg.IndexedSlices) else "Tensor"


def _check(got, golden, where):
    kind = _kind(got)
    assert kind == golden["type"], f"{where}: {kind}, TensorFlow gives {golden['type']}"
    if kind == "IndexedSlices":
        assert got.dense_shape.numpy().tolist() == golden["dense_shape"], where
        assert got.dtype.name == golden["dtype"], where
        assert got.dense_shape.dtype == rg.int32, where
        # The slices are TensorFlow's, in any order (sparse parts are concatenated).
        pairs = sorted(zip(got.indices.numpy().tolist(), got.values.numpy().tolist()))
        want = sorted(zip(golden["indices"], golden["values"]))
        assert [i for i, _ in pairs] == [i for i, _ in want], where
        np.testing.assert_allclose([v for _, v in pairs], [v for _, v in want], rtol=1e-6)
    np.testing.assert_allclose(
        rg.convert_to_tensor(got).numpy(), _dense_of(golden), rtol=1e-6, err_msg=where
    )


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_type_and_value_match_tensorflow_eagerly(name):
    golden = GOLDENS["gradients"][name]
    v = rg.Variable(PARAMS)
    with rg.GradientTape() as tape:
        y = CASES[name](v)
    _check(tape.gradient(y, v), golden["tape_variable"], f"{name} (variable)")
    c = rg.constant(PARAMS)
    with rg.GradientTape() as tape:
        tape.watch(c)
        y = CASES[name](c)
    _check(tape.gradient(y, c), golden["tape_constant"], f"{name} (constant)")


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_type_and_value_match_tensorflow_in_a_function(name):
    golden = GOLDENS["gradients"][name]["function"]
    v = rg.Variable(PARAMS)
    kinds = []

    @rg.function
    def step():
        with rg.GradientTape() as tape:
            y = CASES[name](v)
        g = tape.gradient(y, v)
        kinds.append(_kind(g))
        return rg.convert_to_tensor(g)

    dense = step()
    assert kinds[0] == golden["type"], name
    np.testing.assert_allclose(dense.numpy(), golden["dense"], rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_type_and_value_match_tensorflow_in_a_graph(name):
    golden = GOLDENS["gradients"][name]["graph"]
    graph = rg.Graph()
    with graph.as_default():
        v = rg.compat.v1.Variable(PARAMS)
        (g,) = rg.gradients(CASES[name](v), [v])
        kind = _kind(g)
        dense = rg.convert_to_tensor(g)
        with rg.compat.v1.Session() as sess:
            sess.run(rg.compat.v1.global_variables_initializer())
            value = sess.run(dense)
    assert kind == golden["type"], name
    np.testing.assert_allclose(value, golden["dense"], rtol=1e-6, err_msg=name)


def test_a_session_fetches_indexed_slices_as_their_values():
    graph = rg.Graph()
    with graph.as_default():
        v = rg.compat.v1.Variable(PARAMS)
        (g,) = rg.gradients(rg.reduce_sum(rg.gather(v, [3, 1, 3])), [v])
        with rg.compat.v1.Session() as sess:
            sess.run(rg.compat.v1.global_variables_initializer())
            fetched, total = sess.run([g, rg.reduce_sum(v)])
    assert fetched.indices.tolist() == [3, 1, 3]
    assert fetched.values.tolist() == [[1.0, 1.0]] * 3
    assert fetched.dense_shape.tolist() == [4, 2]
    assert total == pytest.approx(sum(map(sum, PARAMS)))


@pytest.mark.parametrize("name", list(CASES))
def test_second_order_through_a_sparse_gradient_matches_tensorflow(name):
    c = rg.constant(PARAMS)
    with rg.GradientTape() as outer:
        outer.watch(c)
        with rg.GradientTape() as inner:
            inner.watch(c)
            y = CASES[name](c)
        g = rg.convert_to_tensor(inner.gradient(y, c))
        z = rg.reduce_sum(g * g * c)
    _check(outer.gradient(z, c), GOLDENS["gradients"][name]["second_order"], name)


def _slices():
    return rg.IndexedSlices(
        rg.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        rg.constant([2, 0, 2]),
        rg.constant([3, 2]),
    )


def test_converts_to_dense_wherever_a_tensor_is_expected():
    s = _slices()
    dense = [[3.0, 4.0], [0.0, 0.0], [6.0, 8.0]]
    assert rg.convert_to_tensor(s).numpy().tolist() == dense
    assert rg.add(s, 1.0).numpy().tolist() == [[4.0, 5.0], [1.0, 1.0], [7.0, 9.0]]
    assert rg.add_n([s, rg.ones((3, 2))]).numpy().tolist() == [[4.0, 5.0], [1.0, 1.0], [7.0, 9.0]]
    assert rg.add_n([s, s]).numpy().tolist() == [[6.0, 8.0], [0.0, 0.0], [12.0, 16.0]]
    assert rg.reduce_sum(s).numpy() == 21.0


def test_properties_and_negation():
    s = _slices()
    assert s.dtype == rg.float32
    assert s.shape.as_list() == [3, 2]
    assert s.indices.numpy().tolist() == [2, 0, 2]
    negated = -s
    assert isinstance(negated, rg.IndexedSlices)
    assert negated.values.numpy().tolist() == [[-1.0, -2.0], [-3.0, -4.0], [-5.0, -6.0]]
    assert negated.shape.as_list() == [3, 2]


def test_bad_parts_are_typed_errors():
    with pytest.raises(TypeError, match="indices must be int32 or int64"):
        rg.IndexedSlices(rg.constant([[1.0]]), rg.constant([0.0]), rg.constant([1, 1]))
    with pytest.raises(ValueError, match="indices must be a vector"):
        rg.IndexedSlices(rg.constant([[1.0]]), rg.constant([[0]]), rg.constant([1, 1]))
    with pytest.raises(ValueError, match="without dense_shape"):
        rg.convert_to_tensor(rg.IndexedSlices(rg.constant([[1.0]]), rg.constant([0])))


def test_sparse_and_dense_parts_add_as_in_tensorflow():
    p = rg.Variable(PARAMS)
    with rg.GradientTape(persistent=True) as tape:
        both_sparse = rg.reduce_sum(rg.gather(p, [0])) + rg.reduce_sum(rg.gather(p, [0, 3]))
        mixed = rg.reduce_sum(rg.gather(p, [0])) + rg.reduce_sum(p)
    g = tape.gradient(both_sparse, p)
    assert isinstance(g, rg.IndexedSlices)  # concatenated
    assert sorted(g.indices.numpy().tolist()) == [0, 0, 3]
    g = tape.gradient(mixed, p)
    assert not isinstance(g, rg.IndexedSlices)  # made dense and added
    assert g.numpy().tolist() == [[2.0, 2.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]


def test_jacobians_and_functional_gradients_stay_dense():
    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.gather(x, [2, 2])
    assert tape.jacobian(y, x).numpy().tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    grad = rg.autodiff.grad(lambda v: rg.reduce_sum(rg.gather(v, [1, 1])))
    assert grad(x).numpy().tolist() == [0.0, 2.0, 0.0]


def test_a_custom_gradient_may_return_indexed_slices():
    # TensorFlow allows it; retrograd uses the slices' dense tensor (the same values).
    @rg.custom_gradient
    def pick(p):
        def grad(dy):
            return rg.IndexedSlices(dy, rg.constant([1, 1]), rg.constant([3, 2]))

        return rg.gather(p, [1, 1]), grad

    p = rg.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with rg.GradientTape() as tape:
        y = rg.reduce_sum(pick(p) * 3.0)
    g = rg.convert_to_tensor(tape.gradient(y, p))
    assert g.numpy().tolist() == [[0.0, 0.0], [6.0, 6.0], [0.0, 0.0]]


def test_a_function_returns_indexed_slices_as_tensorflow_does():
    v = rg.Variable(PARAMS)

    @rg.function
    def sparse_gradient():
        with rg.GradientTape() as tape:
            y = CASES["gather"](v)
        return {"g": tape.gradient(y, v), "n": 3}

    got = sparse_gradient()
    assert got["n"] == 3
    _check(got["g"], GOLDENS["gradients"]["gather"]["tape_variable"], "function output")
    assert got["g"].shape.as_list() == [4, 2]
