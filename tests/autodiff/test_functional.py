"""Function transforms: grad, value_and_grad, vjp, jvp, jacfwd, jacrev, hessian, hvp — on
nested structures, on custom-gradient functions, composed with each other and with tapes."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff import functional as F
from tests.autodiff.test_forward_mode import log1pexp
from tests.autodiff.test_jacobians import _numerical_jacobian


def test_grad_with_argnums_negative_positions_and_python_numbers():
    f = lambda x, y, z: x * y * y + z  # noqa: E731
    assert float(F.grad(f)(2.0, 3.0, 1.0)) == 9.0
    gy, gz = F.grad(f, argnums=(1, -1))(2.0, 3.0, 1.0)
    assert (float(gy), float(gz)) == (12.0, 1.0)


def test_grad_of_the_same_tensor_passed_twice_gives_one_gradient_per_argument():
    x = rg.constant(3.0)
    gx, gy = F.grad(lambda a, b: a * a * b, argnums=(0, 1))(x, x)
    assert (float(gx), float(gy)) == (18.0, 9.0)


def test_grad_of_nested_arguments_has_their_structure_and_zeros_where_unused():
    params = {"w": rg.constant([1.0, 2.0]), "b": (rg.constant(0.5), rg.constant(7.0))}

    def loss(p, x):
        return rg.reduce_sum(p["w"] * x) + p["b"][0] ** 2

    g = F.grad(loss)(params, rg.constant([3.0, 4.0]))
    assert g["w"].numpy().tolist() == [3.0, 4.0]
    assert float(g["b"][0]) == 1.0 and float(g["b"][1]) == 0.0


def test_value_and_grad_and_has_aux():
    def f(x):
        y = rg.sin(x)
        return y * y, {"sin": y}

    (value, aux), g = F.value_and_grad(f, has_aux=True)(0.5)
    assert float(value) == pytest.approx(np.sin(0.5) ** 2)
    assert float(aux["sin"]) == pytest.approx(np.sin(0.5))
    g2, aux2 = F.grad(f, has_aux=True)(0.5)
    assert float(g) == float(g2) == pytest.approx(np.sin(1.0))
    with pytest.raises(TypeError, match="pair"):
        F.grad(lambda x: x, has_aux=True)(1.0)


@pytest.mark.parametrize(
    "f, args, error, match",
    [
        (lambda x: x * 2, (rg.constant([1.0, 2.0]),), TypeError, r"scalar.*shape \(2,\)"),
        (lambda x: x * 2, (rg.constant(3),), TypeError, "floating or complex inputs, got a int32"),
        (lambda x: 1.0, (1.0,), TypeError, "scalar floating output.*float"),
        (lambda x: x, (1.0,), None, None),
    ],
)
def test_grad_refuses_what_has_no_gradient(f, args, error, match):
    if error is None:
        assert float(F.grad(f)(*args)) == 1.0
        with pytest.raises(ValueError, match="argnums"):
            F.grad(f, argnums=1)(*args)
        return
    with pytest.raises(error, match=match):
        F.grad(f)(*args)


def test_grads_nest_and_compose_with_an_outer_tape():
    cube = lambda x: x * x * x  # noqa: E731
    assert float(F.grad(F.grad(F.grad(cube)))(2.0)) == 6.0
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        g = F.grad(cube)(x)
    assert float(g) == 12.0 and float(tape.gradient(g, x)) == 12.0


def test_transforms_work_on_custom_gradient_functions():
    x = rg.constant(100.0)
    assert float(F.grad(log1pexp)(x)) == 1.0  # the stable rule, not the naive nan
    assert float(F.jvp(log1pexp, (x,), (1.0,))[1]) == 1.0
    assert float(F.jacfwd(log1pexp)(x)) == float(F.jacrev(log1pexp)(x)) == 1.0


def test_vjp_with_nested_outputs_several_calls_and_none_cotangents():
    def f(x, y):
        return {"prod": x * y, "sum": rg.reduce_sum(x)}

    x, y = rg.constant([1.0, 2.0]), rg.constant([3.0, 4.0])
    out, vjp_fn = F.vjp(f, x, y)
    gx, gy = vjp_fn({"prod": rg.constant([1.0, 1.0]), "sum": rg.constant(10.0)})
    assert gx.numpy().tolist() == [13.0, 14.0] and gy.numpy().tolist() == [1.0, 2.0]
    gx, gy = vjp_fn({"prod": rg.constant([0.0, 1.0]), "sum": None})
    assert gx.numpy().tolist() == [0.0, 4.0] and gy.numpy().tolist() == [0.0, 2.0]
    out, vjp_fn, aux = F.vjp(lambda a: (a * 2, "aux"), x, has_aux=True)
    assert aux == "aux" and vjp_fn(rg.constant([1.0, 1.0]))[0].numpy().tolist() == [2.0, 2.0]


def test_jvp_values_structures_and_errors():
    def f(p):
        return p["a"] * p["b"], p["a"] + 1.0

    primal = {"a": rg.constant(2.0), "b": rg.constant(3.0)}
    (y, z), (ty, tz) = F.jvp(f, (primal,), ({"a": 1.0, "b": 0.0},))
    assert (float(y), float(ty), float(z), float(tz)) == (6.0, 3.0, 3.0, 1.0)
    with pytest.raises(TypeError, match="tuple or list"):
        F.jvp(rg.sin, rg.constant(1.0), rg.constant(1.0))
    with pytest.raises(ValueError, match="one per primal"):
        F.jvp(rg.sin, (1.0,), (1.0, 2.0))
    y, t, aux = F.jvp(lambda a: (rg.exp(a), 5), (0.0,), (2.0,), has_aux=True)
    assert (float(t), aux) == (2.0, 5)


def _vector_function(x, w):
    return {"out": rg.tanh(rg.matmul(w, x[:, None]))[:, 0] * x[0], "norm": rg.reduce_sum(x * x)}


@pytest.mark.parametrize("transform", [F.jacfwd, F.jacrev, F.jacobian])
def test_jacobians_of_nested_outputs_against_finite_differences(transform):
    rng = np.random.default_rng(0)
    xs, ws = rng.standard_normal(3), rng.standard_normal((4, 3))
    jac = transform(_vector_function, argnums=(0, 1))(rg.constant(xs), rg.constant(ws))
    for key in ("out", "norm"):

        def numeric(x, w, key=key):
            return _vector_function(rg.constant(x), rg.constant(w))[key].numpy()

        for i in range(2):
            np.testing.assert_allclose(
                jac[key][i].numpy(), _numerical_jacobian(numeric, [xs, ws], i), atol=1e-7
            )


def test_jacfwd_equals_jacrev_with_has_aux_and_on_empty_inputs():
    f = lambda x: (rg.sin(x) * rg.reduce_sum(x), "aux")  # noqa: E731
    x = rg.constant(np.linspace(-1, 1, 5))
    jf, aux = F.jacfwd(f, has_aux=True)(x)
    jr, _ = F.jacrev(f, has_aux=True)(x)
    assert aux == "aux"
    np.testing.assert_allclose(jf.numpy(), jr.numpy(), rtol=1e-12)
    empty = F.jacfwd(lambda x: rg.reduce_sum(x) + 1.0)(rg.zeros([0], rg.float64))
    assert empty.shape == (0,)


def test_hessian_and_hvp_agree():
    a = np.array([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 4.0]])

    def f(x):
        return 0.5 * rg.reduce_sum(x * rg.matmul(rg.constant(a), x[:, None])[:, 0]) + rg.reduce_sum(
            x**3
        )

    xs = np.array([0.5, -1.0, 2.0])
    v = np.array([1.0, 2.0, -1.0])
    h = F.hessian(f)(rg.constant(xs)).numpy()
    expected = 0.5 * (a + a.T) + np.diag(6 * xs)
    np.testing.assert_allclose(h, expected, rtol=1e-12)
    hv = F.hvp(f, (rg.constant(xs),), (rg.constant(v),))
    np.testing.assert_allclose(hv.numpy(), expected @ v, rtol=1e-12)
