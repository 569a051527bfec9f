"""einsum: equations of every kind (traces, diagonals, broadcasting, implicit output),
checked against np.einsum and finite differences, and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops.einsum_ops import normalize_equation
from tests.ops.table import Case, check_forward, check_gradient

EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 2)]),
    ("ba", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->ij", [(2, 2, 3)]),
    ("iji->j", [(2, 3, 2)]),
    ("ij->", [(2, 3)]),
    ("ij,k->k", [(2, 3), (4,)]),
    ("i,j->ij", [(2,), (3,)]),
    (",i->i", [(), (3,)]),
    ("->", [()]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,...jk->...ik", [(3, 1, 2, 3), (2, 3, 2)]),
    ("...ij,...jk", [(1, 2, 3), (2, 3, 2)]),
    ("i...j->j...i", [(2, 3, 1, 2)]),
    ("...,...->...", [(2, 3), (3,)]),
    ("...i,...i->...", [(3, 1, 4), (2, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ii,i->i", [(2, 2), (2,)]),
    (" Ab , bC -> AC ", [(2, 3), (3, 2)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ij,ij->", [(0, 3), (0, 3)]),
]

CASES = [
    Case(
        f"Einsum[{eq.replace(' ', '')}]",
        lambda *xs, eq=eq: rg.einsum(eq, *xs),
        tuple(shapes),
        lambda *xs, eq=eq: np.einsum(eq, *xs),
    )
    for eq, shapes in EQUATIONS
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_equations_are_normalised_to_explicit_letters():
    assert normalize_equation("...ij,...jk", [(3, 1, 2, 3), (2, 3, 2)]) == "abij,bjk->abik"
    assert normalize_equation("ii", [(3, 3)]) == "ii->"
    assert normalize_equation("ba", [(2, 3)]) == "ba->ab"


def test_large_and_integer_operands():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((40, 50)), rng.standard_normal((50, 60))
    np.testing.assert_allclose(rg.einsum("ij,jk->ik", a, b).numpy(), a @ b)
    got = rg.einsum("ij,jk->ik", np.ones((2, 3), np.int32), np.ones((3, 4), np.int32))
    assert got.dtype == rg.int32 and got.numpy().tolist() == [[3] * 4] * 2


def test_python_operands_adopt_the_tensor_dtype():
    got = rg.einsum("i,i->", [1, 2], rg.constant([3.0, 4.0], rg.float64))
    assert got.dtype == rg.float64 and float(got) == 11.0


def test_complex_gradients_conjugate_the_other_operands_as_tensorflow():
    a, b = rg.constant([1 + 1j]), rg.constant([2 + 3j])
    with rg.GradientTape() as tape:
        tape.watch([a, b])
        z = rg.einsum("i,i->", a, b)
    ga, gb = tape.gradient(z, [a, b])
    assert ga.numpy().tolist() == [2 - 3j] and gb.numpy().tolist() == [1 - 1j]


ERR = rg.errors.InvalidArgumentError
M = np.ones((2, 2))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.einsum("ij,jk->ik", M, np.ones((3, 4))),
            ERR,
            "einsum: Expected dimension 2 at axis 0 of input 1",
        ),
        (
            lambda: rg.einsum("ij,jk->ik", np.ones((2, 1)), np.ones((3, 4))),
            ERR,
            "Expected dimension 1",
        ),
        (
            lambda: rg.einsum("ij,jk->ik", np.ones((2, 2, 2)), M),
            ERR,
            "Expected input 0 to have rank 2 but got: 3",
        ),
        (lambda: rg.einsum("...ijk->i", M), ERR, "fewer dimensions than the 3 labels"),
        (lambda: rg.einsum("...i->i", np.ones((2, 3))), ERR, "no '...' to keep them"),
        (
            lambda: rg.einsum("...ij,...jk->...ik", np.ones((2, 2, 3)), np.ones((3, 3, 2))),
            ERR,
            "Expected dimension 2",
        ),
        (lambda: rg.einsum("ij->k", M), ValueError, "label 'k' not present"),
        (lambda: rg.einsum("ij->ii", M), ValueError, "appearing more than once"),
        (
            lambda: rg.einsum("ij,jk->ik", M),
            ValueError,
            'Got 1 inputs for equation "ij,jk->ik", expecting 2',
        ),
        (lambda: rg.einsum("i1->i", M), ValueError, "incorrect format"),
        (lambda: rg.einsum("i->i->i", [1.0]), ValueError, "incorrect format"),
        (lambda: rg.einsum("...i...->i", M), ValueError, "incorrect format"),
        (
            lambda: rg.einsum("ij->ji", np.ones((2, 2), bool)),
            TypeError,
            "Einsum: `inputs` must be a int",
        ),
        (
            lambda: rg.einsum("i,i->", rg.constant([1.0]), rg.constant([1.0], rg.float64)),
            TypeError,
            "same dtype",
        ),
        (lambda: rg.einsum("ij->ji", M, optimize="fast"), ValueError, "optimize"),
        (lambda: rg.einsum("ij->ji", M, foo=1), TypeError, "invalid keyword"),
        (lambda: rg.einsum("->"), ValueError, "at least one operand"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
