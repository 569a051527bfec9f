"""The execution door: op definitions, records, and what observers are shown."""

from __future__ import annotations

import pytest

import retrograd as rg
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import OP_DEFS, context, define_op, record_operation


class Collector:
    def __init__(self):
        self.ops = []
        self.backward = []

    def observe(self, op):
        self.ops.append(op)

    def observe_backward(self, op, rule, upstream, grads):
        shown = [None if g is None else g.numpy() for g in grads]
        self.backward.append((op.type, [u.numpy() for u in upstream], shown))


def test_each_op_type_is_defined_once():
    with pytest.raises(KeyError, match="already defined"):
        define_op("Exp", lambda x: x)
    assert OP_DEFS["MatMul"].type == "MatMul"


def test_nothing_is_recorded_when_nothing_watches():
    assert not context.recording
    assert record_operation("Exp", [rg.constant(1.0)], (rg.constant(2.0),)) is None


def test_observers_see_every_op_while_pushed_including_custom_gradients():
    collector = Collector()

    @rg.custom_gradient
    def double(x):
        return x * 2, lambda dy: dy * 2

    context.push_observer(collector)
    try:
        assert context.recording
        y = double(rg.exp(rg.constant(0.0)))
    finally:
        context.pop_observer(collector)
    assert not context.recording
    rg.exp(rg.constant(1.0))  # after popping: unseen
    assert [op.type for op in collector.ops] == ["Exp", "Mul", "CustomGradient"]
    custom = collector.ops[-1]
    assert custom.name == "double" and custom.outputs[0] is y and custom.grad_fn is not None


def test_backward_observers_see_each_rule_with_its_upstream_and_result():
    collector = Collector()
    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.square(x) * 2.0
    autodiff_state.backward_observers.append(collector)
    try:
        tape.gradient(y, x)
    finally:
        autodiff_state.backward_observers.remove(collector)
    # The constant 2.0 leads to no source: the walk tells Mul's rule to skip its gradient.
    assert collector.backward == [("Mul", [1.0], [2.0, None]), ("Square", [2.0], [12.0])]


def test_operation_interface():
    x = rg.constant([[1.0, 2.0]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(x, axis=1, name="total")
    (op,) = [o for o in tape.producers().values() if o is not None]
    assert (op.type, op.name, op.inputs[0] is x, op.outputs[0] is y) == ("Sum", "total", True, True)
    assert op.get_attr("axis") == (1,) and op.attrs == {"axis": (1,), "keepdims": False}
    assert repr(op) == "<retrograd.Operation 'total' type=Sum>"
