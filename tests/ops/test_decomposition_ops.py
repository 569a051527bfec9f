"""Cholesky, QR, eigh and SVD: values against NumPy, gradients against finite differences at
first and second order. Eigen/singular vectors are compared through quantities that do not
depend on their sign (each column times its own first entry); eigenvalues are kept apart by
a fixed spread on the diagonal, since those gradients need distinct values."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of
from tests.ops.test_matrix_inverse_ops import np_spd, spd

UNIT = (-1.0, 1.0)


def spread(x):
    """x + diag(0, 3, 6, ...): distinct eigenvalues for small symmetric perturbations."""
    n = x.shape.as_list()[-1]
    return x + rg.constant(np.diag(3.0 * np.arange(n)), x.dtype)


def np_spread(x):
    return x + np.diag(3.0 * np.arange(x.shape[-1])).astype(x.dtype)


def signless(vectors, reference):
    """Each column of ``vectors`` times the first entry of the same column of ``reference``."""
    return vectors * reference[..., :1, :]


def eigh_signless(x):
    e, v = rg.linalg.eigh(spread(x))
    return e, signless(v, v)


def np_eigh_signless(x):
    e, v = np.linalg.eigh(np_spread(x))
    return e, v * v[..., :1, :]


def svd_signless(x, full_matrices=False):
    s, u, v = rg.linalg.svd(x, full_matrices=full_matrices)
    return s, signless(u, u), signless(v, u)


def np_svd_signless(x, full_matrices=False):
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    v = np.swapaxes(vh, -1, -2)
    return s, u * u[..., :1, :], v * u[..., :1, :]


def qr_ref(full_matrices=False):
    return lambda x: np.linalg.qr(x, mode="complete" if full_matrices else "reduced")


CASES = [
    Case(
        "Cholesky",
        lambda x: rg.linalg.cholesky(spd(x)),
        ((3, 3),),
        lambda x: np.linalg.cholesky(np_spd(x)),
    ),
    Case(
        "Cholesky[batch]",
        lambda x: rg.linalg.cholesky(spd(x)),
        ((2, 2, 2),),
        lambda x: np.linalg.cholesky(np_spd(x)),
    ),
    Case("Cholesky[1x1]", rg.linalg.cholesky, ((1, 1),), np.linalg.cholesky, (0.5, 2.0)),
    Case("Qr[square]", rg.linalg.qr, ((3, 3),), qr_ref()),
    Case("Qr[tall]", rg.linalg.qr, ((4, 2),), qr_ref()),
    Case("Qr[wide]", rg.linalg.qr, ((2, 4),), qr_ref()),
    Case("Qr[batch]", rg.linalg.qr, ((2, 3, 2),), qr_ref()),
    Case("Qr[full,wide]", lambda x: rg.linalg.qr(x, full_matrices=True), ((2, 3),), qr_ref(True)),
    # The lower triangle of a non-symmetric input is what eigh reads: finite differences see
    # the upper triangle as having no effect, as the gradient says.
    Case("SelfAdjointEigV2", eigh_signless, ((3, 3),), np_eigh_signless, UNIT),
    Case("SelfAdjointEigV2[batch]", eigh_signless, ((2, 2, 2),), np_eigh_signless, UNIT),
    Case(
        "SelfAdjointEigV2[symmetric]",
        lambda x: eigh_signless(x + rg.linalg.adjoint(x)),
        ((3, 3),),
        lambda x: np_eigh_signless(x + x.T),
        (-0.5, 0.5),
    ),
    Case(
        "eigvalsh",
        lambda x: rg.linalg.eigvalsh(spread(x)),
        ((3, 3),),
        lambda x: np.linalg.eigvalsh(np_spread(x)),
        UNIT,
    ),
    Case("Svd[square]", svd_signless, ((3, 3),), np_svd_signless),
    Case("Svd[tall]", svd_signless, ((4, 2),), np_svd_signless),
    Case("Svd[wide,batch]", svd_signless, ((2, 2, 3),), np_svd_signless),
    Case(
        "Svd[full,square]",
        lambda x: svd_signless(x, full_matrices=True),
        ((2, 2),),
        lambda x: np_svd_signless(x, full_matrices=True),
    ),
    Case(
        "Svd[values]",
        lambda x: rg.linalg.svd(x, compute_uv=False),
        ((2, 3, 2),),
        lambda x: np.linalg.svd(x, compute_uv=False),
    ),
    Case(
        "Svd[values,1x1]",
        lambda x: rg.linalg.svd(x, compute_uv=False),
        ((1, 1),),
        lambda x: np.abs(x[0]),
        (0.5, 2.0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_cholesky_reads_the_lower_triangle_and_its_gradient_is_symmetric():
    a = np_spd(np.random.default_rng(0).uniform(-1, 1, (3, 3)))
    upper_changed = a + np.triu(np.full((3, 3), 5.0), 1)
    np.testing.assert_allclose(rg.linalg.cholesky(upper_changed).numpy(), np.linalg.cholesky(a))
    grad = gradient_of(lambda x: rg.reduce_sum(rg.linalg.cholesky(x) ** 2), a).numpy()
    np.testing.assert_allclose(grad, grad.T)


def test_eigh_gradient_is_lower_triangular_as_in_tensorflow():
    a = np_spread(np.random.default_rng(0).uniform(-1, 1, (3, 3)))
    grad = gradient_of(lambda x: rg.linalg.eigvalsh(x)[-1], a).numpy()
    assert np.all(np.triu(grad, 1) == 0)
    _, v = np.linalg.eigh(a)
    top = np.outer(v[:, -1], v[:, -1])
    np.testing.assert_allclose(grad, np.tril(2 * top) - np.diag(np.diag(top)), atol=1e-12)


def test_factorizations_reconstruct_their_input():
    x = np.random.default_rng(0).standard_normal((2, 4, 3))
    q, r = rg.linalg.qr(x, full_matrices=True)
    assert q.shape == (2, 4, 4) and r.shape == (2, 4, 3)
    np.testing.assert_allclose((q @ r).numpy(), x, atol=1e-12)
    s, u, v = rg.linalg.svd(x, full_matrices=True)
    assert (s.shape, u.shape, v.shape) == ((2, 3), (2, 4, 4), (2, 3, 3))
    np.testing.assert_allclose((u[..., :3] * s[..., None, :]) @ rg.linalg.adjoint(v), x, atol=1e-12)
    sym = x[..., :3, :] + np.swapaxes(x[..., :3, :], -1, -2)
    e, w = rg.linalg.eigh(sym)
    np.testing.assert_allclose(
        ((w * e[..., None, :]) @ rg.linalg.adjoint(w)).numpy(), sym, atol=1e-12
    )


def test_decompositions_of_empty_matrices():
    assert rg.linalg.cholesky(np.zeros((0, 0))).shape == (0, 0)
    assert [t.shape for t in rg.linalg.qr(np.zeros((2, 3, 0)))] == [(2, 3, 0), (2, 0, 0)]
    assert [t.shape for t in rg.linalg.eigh(np.zeros((2, 0, 0)))] == [(2, 0), (2, 0, 0)]
    assert rg.linalg.svd(np.zeros((3, 0)), compute_uv=False).shape == (0,)


def test_complex_results_keep_tensorflows_dtypes():
    z = np.array([[2.0, 1j], [-1j, 3.0]], dtype=np.complex64)
    e, v = rg.linalg.eigh(z)
    assert e.dtype == rg.complex64 and v.dtype == rg.complex64
    np.testing.assert_allclose(e.numpy().real, np.linalg.eigvalsh(z), rtol=1e-6)
    s, u, w = rg.linalg.svd(z)
    assert s.dtype == rg.float32 and u.dtype == rg.complex64
    q, r = rg.linalg.qr(z)
    assert np.all(np.diag(r.numpy()).imag == 0)


@pytest.mark.parametrize(
    "f, shape, match",
    [
        (
            lambda x: rg.linalg.qr(x, full_matrices=True),
            (3, 2),
            "Qr: the gradient is not defined for full_matrices=True",
        ),
        (
            lambda x: rg.linalg.svd(x, full_matrices=True),
            (3, 2),
            "Svd: the gradient is not defined for full_matrices=True",
        ),
    ],
)
def test_gradients_of_non_unique_factors_raise(f, shape, match):
    x = rg.constant(np.random.default_rng(0).standard_normal(shape))
    with rg.GradientTape() as tape:
        tape.watch(x)
        out = f(x)
    with pytest.raises(rg.errors.UnimplementedError, match=match):
        tape.gradient(out, x)


def test_svd_values_alone_differentiate_with_full_matrices():
    rg.check_gradients(
        lambda x: rg.linalg.svd(x, full_matrices=True, compute_uv=False),
        np.arange(6.0).reshape(3, 2) ** 1.5,
        order=2,
    )


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.linalg.cholesky(-np.eye(2)),
            rg.errors.InvalidArgumentError,
            "Cholesky: decomposition was not successful",
        ),
        (
            lambda: rg.linalg.cholesky(np.ones((2, 3))),
            rg.errors.InvalidArgumentError,
            "Cholesky: `input` must be a batch of square",
        ),
        (
            lambda: rg.linalg.qr(np.ones(3)),
            rg.errors.InvalidArgumentError,
            "Qr: `input` must have rank >= 2",
        ),
        (lambda: rg.linalg.qr(rg.ones([2, 2], rg.int32)), TypeError, "Qr"),
        (
            lambda: rg.linalg.eigh(np.ones((2, 3))),
            rg.errors.InvalidArgumentError,
            "SelfAdjointEigV2: `tensor` must be a batch of square",
        ),
        (lambda: rg.linalg.eigvalsh(rg.ones([2, 2], rg.float16)), TypeError, "float16"),
        (
            lambda: rg.linalg.svd(np.ones(3)),
            rg.errors.InvalidArgumentError,
            "Svd: `tensor` must have rank >= 2",
        ),
    ],
)
def test_errors_name_the_op_and_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize(
    "f, x, expected",
    [
        (lambda x: rg.reduce_sum(rg.linalg.eigh(x)[0]), np.eye(3), np.eye(3)),
        (lambda x: rg.reduce_sum(rg.linalg.eigvalsh(x)), 2 * np.eye(2), np.eye(2)),
        (lambda x: rg.reduce_sum(rg.linalg.svd(x)[0]), np.eye(3), np.eye(3)),
        (lambda x: rg.reduce_sum(rg.linalg.svd(x)[0]), np.eye(3, 2), np.eye(3, 2)),
        (
            lambda x: rg.reduce_sum(rg.linalg.svd(x)[0]),
            np.diag([1.0, 0.0, 0.0])[:, :2],
            np.eye(3, 2),
        ),
        (
            lambda x: rg.reduce_sum(rg.linalg.svd(x)[0]),
            np.diag([1.0, 0.0, 0.0])[:2, :],
            np.eye(2, 3),
        ),
    ],
)
def test_repeated_and_zero_values_give_tensorflows_finite_gradient(f, x, expected):
    """Where eigen/singular values coincide (or a singular value is 0) the coupling terms
    drop out, as in TensorFlow: losses of the values alone keep their true gradient."""
    np.testing.assert_allclose(gradient_of(f, x).numpy(), expected, atol=1e-12)
