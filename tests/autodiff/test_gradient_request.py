"""gradient_request() (issue 15 item 6): inside grad_fn, which inputs need a gradient and
which upstream gradients are structurally zero; a rule that asks skips the work."""

from __future__ import annotations

import pytest

import retrograd as rg

SEEN = []


@rg.custom_gradient
def pair(a, b, scale):
    """Two outputs (a*b*scale, a+b); records what its grad_fn is asked."""

    def grad(d_prod, d_sum):
        request = rg.autodiff.gradient_request()
        SEEN.append(request)
        need_a, need_b, _ = request.needs_input_grad
        zero_prod, zero_sum = request.zero_upstream
        ga = (0.0 if zero_prod else d_prod * b * scale) + (0.0 if zero_sum else d_sum)
        gb = (0.0 if zero_prod else d_prod * a * scale) + (0.0 if zero_sum else d_sum)
        return (ga if need_a else None), (gb if need_b else None), None

    return (a * b * scale, a + b), grad


def _ask(watch, use, mode):
    SEEN.clear()

    def run(a, b):
        with rg.GradientTape() as tape:
            tape.watch([[a, b][i] for i in watch])
            prod, total = pair(a, b, 2.0)
            y = {"prod": prod, "sum": total, "both": prod + total}[use]
        return tape.gradient(y, [a, b])

    grads = (rg.function(run) if mode == "function" else run)(rg.constant(3.0), rg.constant(4.0))
    return SEEN[-1], [None if g is None else float(g) for g in grads]


CASES = [
    # watched, output used, (needs_input_grad, zero_upstream), gradients
    ((0, 1), "both", ((True, True, False), (False, False)), [9.0, 7.0]),
    ((0,), "both", ((True, False, False), (False, False)), [9.0, None]),
    ((1,), "prod", ((False, True, False), (False, True)), [None, 6.0]),
    ((0, 1), "sum", ((True, True, False), (True, False)), [1.0, 1.0]),
]


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("watch, use, asked, grads", CASES)
def test_grad_fn_knows_what_is_needed(watch, use, asked, grads, mode):
    request, got = _ask(watch, use, mode)
    assert (request.needs_input_grad, request.zero_upstream) == asked
    assert request.needs_variable_grad == ()
    assert got == grads


def test_variables_have_their_own_flags():
    v = rg.Variable(2.0)

    @rg.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            SEEN.append(rg.autodiff.gradient_request())
            return dy * v, [dy * x]

        return x * v, grad

    SEEN.clear()
    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    tape.gradient(y, x)
    assert SEEN[-1].needs_input_grad == (True,) and SEEN[-1].needs_variable_grad == (False,)


def test_outside_grad_fn_it_is_an_error():
    with pytest.raises(RuntimeError, match="only inside a custom gradient's grad_fn"):
        rg.autodiff.gradient_request()
