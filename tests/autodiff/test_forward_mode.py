"""ForwardAccumulator: TensorFlow's API and semantics, nesting with tapes and accumulators,
custom gradients in forward mode (derived from grad_fn, or given with defjvp)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import retrograd as rg
from retrograd.core.execute import context

ForwardAccumulator = rg.autodiff.ForwardAccumulator


def test_jvp_of_a_function_and_of_the_primal_itself():
    x = rg.constant([1.0, 2.0])
    t = rg.constant([1.0, 0.0])
    with ForwardAccumulator(x, t) as acc:
        y = rg.sin(x) * x
        inside = acc.jvp(y)  # available inside the block too
    expected = np.float32([np.cos(1.0) + np.sin(1.0), 0.0])
    np.testing.assert_allclose(acc.jvp(y).numpy(), expected, rtol=1e-6)
    assert inside is acc.jvp(y)
    assert acc.jvp(x) is t


def test_unconnected_values_get_none_or_zeros_of_their_own_dtype():
    x = rg.constant([1.0, 2.0])
    with ForwardAccumulator(x, [1.0, 1.0]) as acc:
        c = rg.constant(3.0) * 2
        i = rg.cast(x, rg.int32)
        s = rg.stop_gradient(x)
    after = x * 2  # outside the block: not tracked
    assert acc.jvp(c) is None and acc.jvp(i) is None and acc.jvp(s) is None
    assert acc.jvp(after) is None
    assert acc.jvp(i, unconnected_gradients="zero").numpy().tolist() == [0, 0]
    assert acc.jvp(i, unconnected_gradients="zero").dtype == rg.int32
    assert acc.jvp(s, unconnected_gradients=rg.UnconnectedGradients.ZERO).numpy().tolist() == [
        0.0,
        0.0,
    ]


def test_nested_structures_of_primals_tangents_and_targets():
    a, b = rg.constant(1.0), rg.constant([2.0, 3.0])
    with ForwardAccumulator({"a": a, "b": [b]}, {"a": 1.0, "b": [rg.constant([0.0, 1.0])]}) as acc:
        y = a * b
    out = acc.jvp({"y": y, "rest": (a, b)})
    assert out["y"].numpy().tolist() == [2.0, 4.0]
    assert float(out["rest"][0]) == 1.0 and out["rest"][1].numpy().tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    "primals, tangents, error, match",
    [
        (rg.constant(1.0), rg.constant(1.0, rg.float64), ValueError, "dtype float64"),
        (rg.constant([1.0]), rg.constant([1.0, 2.0]), ValueError, r"shape \(2,\)"),
        ([rg.constant(1.0)], rg.constant(1.0), ValueError, "structure"),
        (1.0, 1.0, TypeError, "primals\\[0\\] must be a retrograd.Tensor"),
    ],
)
def test_bad_primals_and_tangents_raise_at_creation(primals, tangents, error, match):
    with pytest.raises(error, match=match):
        ForwardAccumulator(primals, tangents)


def test_a_primal_listed_twice_is_an_error_as_in_tensorflow():
    x = rg.constant(1.0)
    with pytest.raises(ValueError, match="specified as a primal multiple times"):
        ForwardAccumulator([x, x], [1.0, 1.0])


def test_integer_primals_are_not_watched_with_a_warning():
    n = rg.constant(3)
    with pytest.warns(UserWarning, match="must be floating"):
        acc = ForwardAccumulator(n, 1)
    with acc:
        y = n * 2
    assert acc.jvp(y) is None


def test_entering_twice_is_an_error_but_reentering_after_exit_continues():
    x = rg.constant(2.0)
    acc = ForwardAccumulator(x, 1.0)
    with acc:
        y = x * x
        with pytest.raises(ValueError, match="already recording"), acc:
            pass
    with acc:
        z = y * x
    assert float(acc.jvp(z)) == 12.0  # d(x^3) = 3 x^2
    assert not context.observers and not context.recording


def test_jvp_of_a_non_tensor_is_a_type_error():
    acc = ForwardAccumulator(rg.constant(1.0), 1.0)
    with pytest.raises(TypeError, match="float"):
        acc.jvp(3.0)


def test_variables_as_primals():
    v = rg.Variable([1.0, 2.0])
    with ForwardAccumulator(v, rg.constant([1.0, 1.0])) as acc:
        y = v * v
    assert acc.jvp(y).numpy().tolist() == [2.0, 4.0]
    assert acc.jvp(v).numpy().tolist() == [1.0, 1.0]


def test_tangents_are_dropped_with_their_values():
    x = rg.constant([1.0, 2.0])
    with ForwardAccumulator(x, [1.0, 1.0]) as acc:
        for _ in range(50):
            y = rg.exp(x) * 2.0
        tangent = weakref.ref(acc.jvp(y))
    del y
    gc.collect()
    assert tangent() is None
    assert len(acc._tangents) == 1  # only x is alive


# --- nesting -----------------------------------------------------------------------------------


def test_nested_accumulators_follow_tensorflow():
    """TensorFlow's documented example and numbers: take higher orders from the outer one."""
    primal = rg.constant(1.1)
    with (
        ForwardAccumulator(primal, rg.constant(1.0)) as outer,
        ForwardAccumulator(primal, rg.constant(1.0)) as inner,
    ):
        primal_out = primal ** rg.constant(3.5)
    inner_jvp = inner.jvp(primal_out)
    assert float(inner_jvp) == pytest.approx(3.5 * 1.1**2.5, rel=1e-6)  # TF: 4.4417057
    assert float(outer.jvp(inner_jvp)) == pytest.approx(3.5 * 2.5 * 1.1**1.5, rel=1e-6)
    assert inner.jvp(outer.jvp(primal_out)) is None  # the inner one never sees the outer's work


def test_forward_over_reverse_gives_hessian_vector_products():
    x = rg.constant([1.0, 2.0])
    v = rg.constant([1.0, -1.0])
    with ForwardAccumulator(x, v) as acc:
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.reduce_sum(x**3) + x[0] * x[1]
        g = tape.gradient(y, x)
    # H = [[6 x0, 1], [1, 6 x1]]
    assert acc.jvp(g).numpy().tolist() == [6.0 - 1.0, 1.0 - 12.0]


def test_reverse_over_forward_and_gradients_with_respect_to_the_tangent():
    x, v = rg.constant(0.5), rg.constant(2.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, v])
        with ForwardAccumulator(x, v) as acc:
            y = rg.sin(x) * x
        jvp = acc.jvp(y)  # v * (cos(x) x + sin(x))
    d_dx = tape.gradient(jvp, x)
    d_dv = tape.gradient(jvp, v)
    assert float(d_dx) == pytest.approx(2.0 * (2 * np.cos(0.5) - 0.5 * np.sin(0.5)), rel=1e-6)
    assert float(d_dv) == pytest.approx(np.cos(0.5) * 0.5 + np.sin(0.5), rel=1e-6)


# --- custom gradients ----------------------------------------------------------------------------


@rg.custom_gradient
def log1pexp(x):
    e = rg.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return rg.math.log(1 + e), grad


def test_a_custom_gradient_function_works_in_forward_mode_through_its_grad_fn():
    x = rg.constant([0.0, 100.0])
    with ForwardAccumulator(x, [1.0, 1.0]) as acc:
        y = log1pexp(x)
    # From grad_fn: the stable derivative (the forward ops alone would give nan at 100).
    assert acc.jvp(y).numpy().tolist() == [0.5, 1.0]


def test_forward_over_forward_through_a_custom_gradient():
    x = rg.constant(0.3)
    with ForwardAccumulator(x, 1.0) as outer:
        with ForwardAccumulator(x, 1.0) as inner:
            y = log1pexp(x)
        d1 = inner.jvp(y)
    s = 1 / (1 + np.exp(-0.3))
    assert float(outer.jvp(d1)) == pytest.approx(s * (1 - s), rel=1e-6)


def _bar():
    @rg.custom_gradient
    def bar(x, pair, scale=1.0):
        a, b = pair

        def grad(dz, dw):
            return dz * a * b * scale, (dz * x * b * scale + dw, dz * x * a * scale)

        return (x * a * b * scale, a + 0.0), grad

    return bar


def test_defjvp_takes_precedence_and_sees_primals_tangents_and_outputs():
    bar = _bar()
    seen = {}

    @bar.defjvp
    def bar_jvp(primals, tangents, outputs):
        seen.update(primals=primals, tangents=tangents, outputs=outputs)
        (x, (a, b)), (tx, (ta, tb)) = primals, tangents
        # a deliberately scaled rule, to see that it is the one used
        return 10 * (tx * a * b + x * ta * b + x * a * tb), ta

    x, a, b = rg.constant(2.0), rg.constant(3.0), rg.constant(5.0)
    with ForwardAccumulator([x, b], [1.0, 1.0]) as acc:
        z, w = bar(x, (a, b))
    assert float(acc.jvp(z)) == 10 * (15.0 + 6.0)
    assert float(acc.jvp(w)) == 0.0  # a's tangent: zero, given as zeros to the rule
    assert seen["primals"][0] is x and seen["tangents"][1][0].numpy() == 0.0
    assert seen["outputs"][0] is z
    with rg.GradientTape() as tape:  # the gradient is still grad_fn's
        tape.watch(x)
        z, _ = bar(x, (a, b))
    assert float(tape.gradient(z, x)) == 15.0


def test_without_defjvp_the_same_function_derives_its_jvp():
    bar = _bar()
    x, a, b = rg.constant(2.0), rg.constant(3.0), rg.constant(5.0)
    with ForwardAccumulator([x, a, b], [1.0, 1.0, 1.0]) as acc:
        z, w = bar(x, (a, b), scale=2.0)
    assert float(acc.jvp(z)) == 2.0 * (15.0 + 10.0 + 6.0)
    assert float(acc.jvp(w)) == 1.0


def test_a_jvp_rule_for_variables_read_inside_is_derived_and_added():
    v = rg.Variable(3.0)

    @rg.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x]

        return x * v, grad

    @scaled.defjvp
    def _(primals, tangents, outputs):
        return tangents[0] * v

    x = rg.constant(2.0)
    with ForwardAccumulator([x, v], [1.0, 10.0]) as acc:
        y = scaled(x)
    assert float(acc.jvp(y)) == 3.0 + 2.0 * 10.0


def test_defjvp_rules_are_checked():
    @rg.custom_gradient
    def square(x):
        return x * x, lambda dy: 2 * dy * x

    with pytest.raises(TypeError, match=r"must accept \(primals, tangents, outputs\)"):
        square.defjvp(lambda primals, tangents: tangents[0])
    square.defjvp(lambda primals, tangents, outputs: rg.reduce_sum(tangents[0]))
    x = rg.constant([1.0, 2.0])
    with (
        ForwardAccumulator(x, [1.0, 1.0]),
        pytest.raises(ValueError, match=r"'.*square'.*defjvp.*shape \(\)"),
    ):
        square(x)
    square.defjvp(lambda primals, tangents, outputs: (tangents[0], tangents[0]))
    with ForwardAccumulator(x, [1.0, 1.0]), pytest.raises(ValueError, match="1 output"):
        square(x)


def test_no_observer_is_left_behind():
    x = rg.constant(1.0)
    with pytest.raises(RuntimeError), ForwardAccumulator(x, 1.0):
        raise RuntimeError("fails inside")
    assert not context.observers and not context.recording


# -- gradient_override applies to forward mode --------------------------------------------


def _straight_through(op, grad):
    return grad


def _doubled_sin_grad(op, grad):
    return grad * rg.cos(op.inputs[0]) * 2.0


OVERRIDDEN_JVPS = [
    # (op type, override, f, x, tangent, plain jvp, overridden jvp)
    ("Relu", _straight_through, rg.nn.relu, [-1.0, 2.0], [1.0, 1.0], [0.0, 1.0], [1.0, 1.0]),
    # Sin has a registered forward rule: the override must win over it.
    ("Sin", _doubled_sin_grad, rg.sin, [0.0, 1.0], [1.0, 0.5],
     [1.0, 0.5 * np.cos(1.0)], [2.0, np.cos(1.0)]),
]  # fmt: skip


@pytest.mark.parametrize("op_type,override,f,x,tangent,plain,overridden", OVERRIDDEN_JVPS)
def test_forward_mode_honours_the_override_scope(
    op_type, override, f, x, tangent, plain, overridden
):
    x = rg.constant(x)
    with rg.autodiff.ForwardAccumulator(x, rg.constant(tangent)) as acc:
        y_plain = f(x)
        with rg.gradient_override({op_type: override}):
            y = f(x)
        y_after = f(x)
    np.testing.assert_allclose(acc.jvp(y_plain).numpy(), plain, rtol=1e-6)
    np.testing.assert_allclose(acc.jvp(y).numpy(), overridden, rtol=1e-6)
    np.testing.assert_allclose(acc.jvp(y_after).numpy(), plain, rtol=1e-6)
    # Forward and reverse mode agree under the override: J·t from the tape's Jacobian.
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    with rg.gradient_override({op_type: override}):
        jacobian = tape.jacobian(y, x).numpy()
    np.testing.assert_allclose(jacobian @ np.asarray(tangent), overridden, rtol=1e-6)


def test_an_override_to_none_gives_no_tangent_and_custom_gradients_keep_their_rule():
    x = rg.constant([-1.0, 2.0])

    @rg.custom_gradient
    def clip_grad(v):
        return rg.nn.relu(v), lambda dy: dy * 3.0

    with (
        rg.autodiff.ForwardAccumulator(x, rg.constant([1.0, 1.0])) as acc,
        rg.gradient_override({"Relu": None}),
    ):
        y = rg.nn.relu(x)
        z = clip_grad(x)
    assert acc.jvp(y) is None
    assert acc.jvp(z).numpy().tolist() == [3.0, 3.0]


def test_the_derived_jvp_transposes_the_override_with_true_gradients():
    """The override's own ops (here a Mul) are transposed with their real gradients, even
    when the scope overrides Mul too."""
    x = rg.constant([1.0, 2.0])
    with (
        rg.autodiff.ForwardAccumulator(x, rg.constant([1.0, 1.0])) as acc,
        rg.gradient_override({"Sin": _doubled_sin_grad, "Mul": None}),
    ):
        y = rg.sin(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 2.0 * np.cos([1.0, 2.0]), rtol=1e-6)
