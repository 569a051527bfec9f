"""The matrix exponential: values against an independent Taylor-series reference and closed
forms, and its exact (Fréchet-derivative) gradient against finite differences to second order.
"""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def taylor_expm(x):
    """exp by halving until small, 30 Taylor terms, then squaring back (in float64)."""
    a = np.asarray(x, dtype=np.complex128 if np.iscomplexobj(x) else np.float64)
    halvings = max(
        0, int(np.ceil(np.log2(max(np.abs(a).sum(axis=-2).max(initial=0.0), 1e-300) / 0.5)))
    )
    a = a / 2.0**halvings
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).astype(a.dtype)
    total = term.copy()
    for k in range(1, 30):
        term = term @ a / k
        total = total + term
    for _ in range(halvings):
        total = total @ total
    return total.astype(np.asarray(x).dtype)


CASES = [
    Case("MatrixExponential", rg.linalg.expm, ((3, 3),), taylor_expm, (-1.0, 1.0)),
    Case(
        "MatrixExponential[squared]", rg.linalg.expm, ((2, 2),), taylor_expm, (-3.0, 3.0), rtol=1e-4
    ),
    Case("MatrixExponential[batch]", rg.linalg.expm, ((2, 2, 2),), taylor_expm),
    Case("MatrixExponential[1x1]", rg.linalg.expm, ((1, 1),), np.exp),
    Case(
        "MatrixExponential[tiny]",
        lambda x: rg.linalg.expm(1e-3 * x),
        ((2, 2),),
        lambda x: taylor_expm(1e-3 * x),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_reference(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_closed_forms():
    t = 0.7
    rotation = rg.linalg.expm(np.array([[0.0, -t], [t, 0.0]])).numpy()
    np.testing.assert_allclose(
        rotation, [[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], atol=1e-15
    )
    nilpotent = rg.linalg.expm(
        np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    ).numpy()
    np.testing.assert_allclose(
        nilpotent, [[1.0, 1.0, 0.5], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], atol=1e-15
    )
    np.testing.assert_allclose(
        rg.linalg.expm(np.diag([1.0, -2.0])).numpy(), np.diag(np.exp([1.0, -2.0]))
    )


def test_batches_of_very_different_norms_are_each_accurate():
    rng = np.random.default_rng(3)
    x = np.stack(
        [1e-6 * rng.standard_normal((3, 3)), 20 * rng.standard_normal((3, 3)), np.zeros((3, 3))]
    )
    expected = taylor_expm(x)
    got = rg.linalg.expm(x).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12 * np.abs(expected).max())
    np.testing.assert_allclose(got[2], np.eye(3), rtol=1e-15, atol=0)


def test_float32_and_complex_inputs_keep_their_dtype():
    x = np.array([[0.0, 1.0], [-1.0, 0.0]])
    assert rg.linalg.expm(x.astype(np.float32)).dtype == rg.float32
    z = rg.linalg.expm(1j * np.eye(2))
    assert z.dtype == rg.complex128
    np.testing.assert_allclose(z.numpy(), np.exp(1j) * np.eye(2))
    assert rg.linalg.expm(np.zeros((0, 0))).shape == (0, 0)


def test_gradient_is_the_exact_frechet_derivative_for_commuting_directions():
    """For A = diag(a), d/dA_ii sum(expm(A)) = exp(a_i) exactly."""
    a = np.array([0.5, -1.0, 2.0])
    x = rg.constant(np.diag(a))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.linalg.expm(x))
    grad = tape.gradient(y, x).numpy()
    np.testing.assert_allclose(np.diag(grad), np.exp(a), rtol=1e-14)


@pytest.mark.parametrize(
    "value, error, match",
    [
        (
            np.ones(3),
            rg.errors.InvalidArgumentError,
            "MatrixExponential: `input` must have rank >= 2",
        ),
        (np.ones((2, 3)), rg.errors.InvalidArgumentError, "square"),
        (
            np.eye(2, dtype=np.int32),
            TypeError,
            "MatrixExponential: `input` must be a float or complex",
        ),
    ],
)
def test_errors_name_the_op_and_the_problem(value, error, match):
    with pytest.raises(error, match=match):
        rg.linalg.expm(value)
