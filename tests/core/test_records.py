"""Records keep the values their gradient reads and stand-ins (shape and dtype) for the
others: the program's tensors are never touched, plain reference counting frees what the
program drops, and the gradients stay exactly what they were (first and second order)."""

import tracemalloc

import numpy as np
import pytest

import retrograd as rg
from retrograd.core import records
from retrograd.core.execute import OP_DEFS
from retrograd.core.records import LEAN_BYTES, is_stand_in, stand_in
from retrograd.core.registry import gradient_registry

N = LEAN_BYTES // 2  # float32 elements: twice the size a record drops


def _x(seed=0, positive=False):
    values = np.random.default_rng(seed).uniform(0.5 if positive else -1.0, 1.5, N)
    return rg.constant(values.astype(np.float32))


# op type -> a function of x whose intermediate (the op's output or its other operand) the
# program drops at once.
CASES = {
    "Sin": lambda x: rg.exp(rg.sin(x)),
    "Cos": lambda x: rg.exp(rg.cos(x)),
    "Exp": lambda x: rg.sin(rg.exp(x)),
    "Log": lambda x: rg.sin(rg.math.log(x)),
    "Tanh": lambda x: rg.sin(rg.tanh(x)),
    "Sigmoid": lambda x: rg.sin(rg.sigmoid(x)),
    "Relu": lambda x: rg.sin(rg.nn.relu(x)),
    "Neg": lambda x: rg.sin(-rg.sin(x)),
    "Square": lambda x: rg.sin(rg.square(x)),
    "Mul": lambda x: rg.sin(x * rg.cos(x)),
    "AddV2": lambda x: rg.sin(rg.sin(x) + rg.cos(x)),
    "Sub": lambda x: rg.sin(rg.sin(x) - rg.cos(x)),
    "RealDiv": lambda x: rg.sin(rg.sin(x) / (rg.cos(x) + 2.0)),
    "Sum": lambda x: rg.reduce_sum(rg.sin(x) * x) * x,
    "Mean": lambda x: rg.reduce_mean(rg.sin(x) * x) * x,
    "Reshape": lambda x: rg.reshape(rg.sin(rg.reshape(x, [128, -1])), [-1]),
    "MatMul": lambda x: rg.sin(
        rg.matmul(rg.reshape(rg.sin(x), [128, -1]), rg.reshape(x, [-1, 128]))
    ),
}


def _gradients(f, x):
    """First and second derivatives of sum(f(x)) (the second along ones)."""
    if True:
        with rg.GradientTape() as outer:
            outer.watch(x)
            with rg.GradientTape() as inner:
                inner.watch(x)
                y = rg.reduce_sum(f(x))
            g = inner.gradient(y, x)
        h = outer.gradient(g, x)
        with rg.GradientTape() as tape:  # one tape alone: the case that frees values
            tape.watch(x)
            y = rg.reduce_sum(f(x))
        first = tape.gradient(y, x)
        with rg.GradientTape(persistent=True) as tape:  # alone, recording its own gradient
            tape.watch(x)
            y = rg.reduce_sum(f(x))
            g2 = tape.gradient(y, x)
        h2 = tape.gradient(g2, x)
    return first.numpy(), g.numpy(), h.numpy(), g2.numpy(), h2.numpy()


@pytest.mark.parametrize("op_type", sorted(CASES))
def test_dropping_unread_values_changes_no_gradient(op_type, monkeypatch):
    x = _x(positive=op_type == "Log")
    made = []
    monkeypatch.setattr(records, "stand_in", lambda v: made.append(v) or stand_in(v))
    lean = _gradients(CASES[op_type], x)
    assert made  # values were dropped from records
    monkeypatch.setattr(records, "LEAN_BYTES", 1 << 62)  # records keep every value
    made.clear()
    kept = _gradients(CASES[op_type], x)
    assert not made
    for a, b in zip(lean, kept):
        np.testing.assert_array_equal(a, b)


def _sin_records(tape):
    """The Sin records ``tape`` made, in order."""
    return [op for op in dict.fromkeys(tape.producers().values()) if op and op.type == "Sin"]


def test_a_record_stands_in_for_what_its_gradient_does_not_read():
    x = _x()
    with rg.GradientTape() as tape:
        tape.watch(x)
        held = rg.sin(x)
        y = rg.reduce_sum(rg.exp(held) + rg.exp(rg.sin(x * 2.0)))
    first, second = _sin_records(tape)
    # Sin's gradient reads its input, not its output: the record keeps the input itself
    # and, for the output, a stand-in with its id, shape and dtype.
    assert first.inputs[0] is x and first.outputs[0] is not held
    assert first.outputs[0]._id == held._id and is_stand_in(first.outputs[0]._value)
    assert first.outputs[0].shape == held.shape and first.outputs[0].dtype == held.dtype
    assert not is_stand_in(held._value)  # the program's tensor is untouched
    assert is_stand_in(second.outputs[0]._value)
    v = x.numpy()
    expected = np.exp(np.sin(v)) * np.cos(v) + np.exp(np.sin(2 * v)) * np.cos(2 * v) * 2
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-5)


def test_small_values_are_kept_whole():
    x = rg.constant(np.ones(8, np.float32))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.sin(x)
    (op,) = _sin_records(tape)
    assert op.outputs[0] is y  # (a stand-in would cost more than it saves)


def test_two_tapes_share_one_lean_record():
    x = _x()
    with rg.GradientTape() as a, rg.GradientTape() as b:
        a.watch(x)
        b.watch(x)
        y = rg.reduce_sum(rg.exp(rg.sin(x * 2.0)))
    assert _sin_records(a) == _sin_records(b)
    assert all(is_stand_in(op.outputs[0]._value) for op in _sin_records(a))
    np.testing.assert_allclose(a.gradient(y, x).numpy(), b.gradient(y, x).numpy())


def test_records_keep_everything_while_an_observer_looks():
    x = _x()
    with rg.trace(), rg.GradientTape() as tape:
        tape.watch(x)
        rg.exp(rg.sin(x))
    assert not any(is_stand_in(op.outputs[0]._value) for op in _sin_records(tape))


def test_an_override_entered_before_the_forward_keeps_the_values_it_may_read():
    x = _x()

    def sin_from_output(op, grad):  # reads the output, which retrograd's rule does not
        return grad * op.outputs[0]

    with rg.gradient_override({"Sin": sin_from_output}):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.reduce_sum(rg.exp(rg.sin(x)))
        got = tape.gradient(y, x).numpy()
    s = np.sin(x.numpy())
    np.testing.assert_allclose(got, np.exp(s) * s, rtol=1e-5)


def test_an_override_entered_after_the_forward_is_refused_where_values_were_dropped():
    x = _x()
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.exp(rg.sin(x)))
    override = rg.gradient_override({"Sin": lambda op, grad: grad * op.outputs[0]})
    with override, pytest.raises(ValueError, match=r"op 'Sin'.*output 0 was not kept"):
        tape.gradient(y, x)


def test_another_registered_gradient_function_reads_everything():
    own = OP_DEFS["Cos"].gradient
    assert OP_DEFS["Cos"].reads == (frozenset({0}), frozenset())
    gradient_registry.unregister("Cos")
    try:
        rg.RegisterGradient("Cos")(lambda op, grad: -grad * rg.sin(op.inputs[0]))
        assert OP_DEFS["Cos"].reads == (None, None)
        assert not OP_DEFS["Cos"].gradient.own
    finally:
        gradient_registry.unregister("Cos")
        gradient_registry.register(own.fn, "Cos", own=True)
    assert OP_DEFS["Cos"].gradient.own and OP_DEFS["Cos"].reads == (frozenset({0}), frozenset())


def test_elementwise_workload_peak_memory():
    # sum(exp(sin(e)) * e): after the forward, the records keep exp(sin(e)) alone besides e
    # (sin(e) and the product are dropped). The backward peaks at four arrays: while Exp's
    # gradient is computed, exp(sin(e)), the upstream gradient, the part of e's gradient from
    # the product and the new product are alive, as in NumPy written by hand without in-place
    # operations.
    e = rg.constant(np.random.default_rng(3).uniform(-1, 1, 1 << 20).astype(np.float32))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        with rg.GradientTape() as tape:
            tape.watch(e)
            y = rg.reduce_sum(rg.exp(rg.sin(e)) * e)
        g = tape.gradient(y, e)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak / e.numpy().nbytes <= 4.05
    v = e.numpy()
    np.testing.assert_allclose(g.numpy(), np.exp(np.sin(v)) * (1 + v * np.cos(v)), rtol=1e-5)
