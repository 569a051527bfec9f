"""Large values no gradient function reads are freed once the program drops them, and the
gradients stay exactly what they were (first and second order)."""

import tracemalloc
import weakref

import numpy as np
import pytest

import retrograd as rg
from retrograd.core import released_values
from retrograd.core.execute import OP_DEFS
from retrograd.core.registry import gradient_registry
from retrograd.core.released_values import LARGE, is_stand_in, stand_in

N = LARGE // 4  # float32 elements: one "large" array


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
    "MatMul": lambda x: rg.sin(
        rg.matmul(rg.reshape(rg.sin(x), [512, -1]), rg.reshape(x, [-1, 512]))
    ),
}


def _gradients(f, x, keep):
    """First and second derivatives of sum(f(x)) (the second along ones); with ``keep``,
    every tensor the ops make stays held by the program (nothing can be freed)."""
    held = []
    if keep:
        original = rg.core.execute.Tensor.__init__

        def holding(self, value):
            original(self, value)
            held.append(self)

        rg.core.execute.Tensor.__init__ = holding
    try:
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
    finally:
        if keep:
            rg.core.execute.Tensor.__init__ = original
    return first.numpy(), g.numpy(), h.numpy(), g2.numpy(), h2.numpy()


@pytest.mark.parametrize("op_type", sorted(CASES))
def test_freeing_unread_values_changes_no_gradient(op_type, monkeypatch):
    assert OP_DEFS[op_type].unread is not None
    x = _x(positive=op_type == "Log")
    made = []
    monkeypatch.setattr(released_values, "stand_in", lambda v: made.append(v) or stand_in(v))
    freed = _gradients(CASES[op_type], x, keep=False)
    assert made  # values were freed
    kept = _gradients(CASES[op_type], x, keep=True)
    for a, b in zip(freed, kept):
        np.testing.assert_array_equal(a, b)


def _sin_outputs(tape):
    """The outputs of the Sin ops ``tape`` recorded, in order."""
    return [
        op.outputs[0] for op in dict.fromkeys(tape._tracked.values()) if op and op.type == "Sin"
    ]


def test_a_dropped_intermediate_is_freed_and_a_held_one_is_not():
    x = _x()
    with rg.GradientTape() as tape:
        tape.watch(x)
        held = rg.sin(x)
        y = rg.reduce_sum(rg.exp(held) + rg.exp(rg.sin(x * 2.0)))
    first, second = _sin_outputs(tape)
    assert first is held and not is_stand_in(held._value)
    assert is_stand_in(second._value)  # freed: only its shape and dtype stay
    assert second.shape == held.shape and second.dtype == held.dtype
    v = x.numpy()
    expected = np.exp(np.sin(v)) * np.cos(v) + np.exp(np.sin(2 * v)) * np.cos(2 * v) * 2
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-5)


def test_a_tensor_with_a_weak_reference_is_not_freed():
    x = _x()
    with rg.GradientTape() as tape:
        tape.watch(x)
        seen = weakref.ref(rg.sin(x))
        y = rg.reduce_sum(rg.exp(seen()))
    assert not is_stand_in(seen()._value)
    np.testing.assert_allclose(
        tape.gradient(y, x).numpy(), np.exp(np.sin(x.numpy())) * np.cos(x.numpy()), rtol=1e-5
    )


def test_nothing_is_freed_while_two_tapes_record():
    x = _x()
    with rg.GradientTape() as a, rg.GradientTape() as b:
        a.watch(x)
        b.watch(x)
        y = rg.reduce_sum(rg.exp(rg.sin(x * 2.0)))
    assert not any(is_stand_in(t._value) for t in _sin_outputs(a))
    np.testing.assert_allclose(a.gradient(y, x).numpy(), b.gradient(y, x).numpy())


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


def test_an_override_entered_after_the_forward_is_refused_where_values_were_freed():
    x = _x()
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.exp(rg.sin(x)))
    override = rg.gradient_override({"Sin": lambda op, grad: grad * op.outputs[0]})
    with override, pytest.raises(ValueError, match=r"op 'Sin'.*output 0 was freed"):
        tape.gradient(y, x)


def test_registering_another_gradient_function_withdraws_the_declaration():
    entry = gradient_registry.entries["Cos"]
    declared = OP_DEFS["Cos"].unread
    gradient_registry.unregister("Cos")
    try:
        rg.RegisterGradient("Cos")(lambda op, grad: -grad * rg.sin(op.inputs[0]))
        assert OP_DEFS["Cos"].unread is None
    finally:
        gradient_registry.unregister("Cos")
        gradient_registry.register(entry[0], "Cos")
        OP_DEFS["Cos"].unread = declared
    assert "Cos" in gradient_registry.builtin


def test_elementwise_workload_peaks_at_three_times_its_input():
    # sum(exp(sin(e)) * e): the forward keeps exp(sin(e)) alone, the backward two arrays
    # more (NumPy written by hand without in-place operations peaks at four).
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
    assert peak / e.numpy().nbytes <= 3.05
    v = e.numpy()
    np.testing.assert_allclose(g.numpy(), np.exp(np.sin(v)) * (1 + v * np.cos(v)), rtol=1e-5)
