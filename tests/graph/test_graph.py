"""Graphs: building ops, names, shapes known before running, and what graph tensors refuse."""

from __future__ import annotations

import pytest

import retrograd as rg
from retrograd.graph.graph import SymbolicTensor
from retrograd.ops.broadcast import unbroadcast


@pytest.fixture
def graph():
    g = rg.Graph()
    with g.as_default():
        yield g


def test_ops_are_added_with_unique_names_and_the_operation_interface(graph):
    a = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    b = rg.constant([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
    c = rg.matmul(a, b)
    d = rg.matmul(a, b, name="product")
    assert isinstance(c, SymbolicTensor) and c.graph is graph and c.op.graph is graph
    assert (c.name, c.op.name, c.op.type, d.name) == ("MatMul:0", "MatMul", "MatMul", "product:0")
    assert c.op.inputs == (a, b) and c.op.outputs == (c,) and c.op.get_attr("transpose_a") is False
    assert repr(c) == "<retrograd.Tensor 'MatMul:0' shape=(2, 3) dtype=float32>"
    assert [op.name for op in graph.get_operations()] == ["Const", "Const_1", "MatMul", "product"]
    assert (
        graph.get_tensor_by_name("MatMul:0") is c and graph.get_operation_by_name("product") is d.op
    )
    assert rg.matmul(a, b).op.name == "MatMul_1"


def test_name_scopes_prefix_names(graph):
    with rg.name_scope("layer"):
        x = rg.compat.v1.placeholder(rg.float32, [2], name="x")
        y = x * 2.0
    with rg.name_scope("layer"):
        z = rg.exp(x)
    assert (x.name, y.op.name, z.op.name) == ("layer/x:0", "layer/mul", "layer_1/Exp")


def test_shapes_are_inferred_with_unknown_dimensions(graph):
    x = rg.compat.v1.placeholder(rg.float32, [None, 3])
    w = rg.constant([[1.0], [2.0], [3.0]])
    assert rg.matmul(x, w).shape == (None, 1)
    assert rg.reduce_sum(x, axis=1).shape.as_list() == [None]
    assert rg.reshape(x, [-1]).shape == (None,) and rg.reshape(x, [None, 1, 3]).shape == (
        None,
        1,
        3,
    )
    assert rg.transpose(x).shape == (3, None) and (x + [1.0, 2.0, 3.0]).shape == (None, 3)
    assert rg.where(x > 0).shape == (None, 2) and rg.where(x > 0).dtype == rg.int64
    assert rg.concat([x, x], 1).shape == (None, 6) and rg.stack([x, x]).shape == (2, None, 3)
    unknown = rg.compat.v1.placeholder(rg.float32)
    assert unknown.shape.rank is None and (unknown * 2.0).shape.rank is None


def test_shape_errors_surface_while_building_and_name_the_op(graph):
    x = rg.compat.v1.placeholder(rg.float32, [None, 3])
    with pytest.raises(rg.errors.InvalidArgumentError, match="MatMul: inner dimensions differ"):
        rg.matmul(x, rg.ones([2, 2]))
    with pytest.raises(
        rg.errors.InvalidArgumentError, match="Reshape.*while building op 'Reshape'"
    ):
        rg.reshape(rg.ones([2, 3]), [4])
    with pytest.raises(ValueError, match="unknown"):
        rg.reduce_sum(rg.compat.v1.placeholder(rg.float32), axis=0)


def test_graph_tensors_refuse_python_control_flow_and_values(graph):
    x = rg.compat.v1.placeholder(rg.float32, [2], name="x")
    with pytest.raises(TypeError, match="retrograd.cond"):
        bool(x > 0)
    with pytest.raises(TypeError, match="while_loop"):
        list(x)
    with pytest.raises(TypeError, match="x.shape"):
        len(x)
    with pytest.raises(AttributeError, match="Session.run"):
        x.numpy()
    with pytest.raises(TypeError, match="Python float"):
        float(x)


def test_tensors_of_another_graph_are_refused(graph):
    x = rg.compat.v1.placeholder(rg.float32, [2])
    with rg.Graph().as_default(), pytest.raises(ValueError, match="same graph"):
        x * 2.0


def test_placeholder_needs_a_graph():
    with pytest.raises(RuntimeError, match="eager"):
        rg.compat.v1.placeholder(rg.float32, [2])


def test_eager_execution_can_be_disabled_and_enabled():
    assert rg.executing_eagerly()
    rg.compat.v1.disable_eager_execution()
    try:
        assert not rg.executing_eagerly()
        assert isinstance(rg.constant(1.0) + 1.0, SymbolicTensor)
        assert rg.get_default_graph() is rg.compat.v1.get_default_graph()
    finally:
        rg.compat.v1.enable_eager_execution()
    assert rg.executing_eagerly() and not isinstance(rg.constant(1.0) + 1.0, SymbolicTensor)


def test_gradient_override_map_swaps_the_gradient_of_ops_created_inside(graph):
    @rg.RegisterGradient("TestGuidedRelu")
    def _guided_relu_grad(op, grad):
        return rg.where(grad > 0, grad, rg.zeros_like(grad)) * rg.cast(
            op.outputs[0] > 0, grad.dtype
        )

    try:
        x = rg.constant([-1.0, 2.0, 3.0])
        with graph.gradient_override_map({"Relu": "TestGuidedRelu"}):
            guided = rg.nn.relu(x)
        plain = rg.nn.relu(x)
        upstream = rg.constant([1.0, -1.0, 1.0])
        (g_guided,) = rg.gradients(guided, x, grad_ys=upstream)
        (g_plain,) = rg.gradients(plain, x, grad_ys=upstream)
        with rg.compat.v1.Session(graph=graph) as sess:
            assert sess.run(g_guided).tolist() == [0.0, 0.0, 1.0]
            assert sess.run(g_plain).tolist() == [0.0, -1.0, 1.0]
    finally:
        rg.gradient_registry.unregister("TestGuidedRelu")


def test_unbroadcast_with_unknown_dimensions_reads_shapes_when_run(graph):
    x = rg.compat.v1.placeholder(rg.float32, [None])
    y = rg.compat.v1.placeholder(rg.float32, [3])
    reduced = unbroadcast(x + y, x)  # x may be fed with size 1 (broadcast) or 3
    with rg.compat.v1.Session(graph=graph) as sess:
        assert sess.run(reduced, {x: [1.0], y: [1.0, 2.0, 3.0]}).tolist() == [9.0]
        assert sess.run(reduced, {x: [1.0, 1.0, 1.0], y: [1.0, 2.0, 3.0]}).tolist() == [
            2.0,
            3.0,
            4.0,
        ]
