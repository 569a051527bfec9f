"""Diagonals and bands: diag, diag_part, set_diag (bands k and alignments), band_part, trace,
eye — values against loop-by-loop references, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]


def _offset(d, length, width, align):
    """How far diagonal ``d`` of ``length`` is shifted right in a row of ``width``."""
    right_super = align in ("RIGHT_LEFT", "RIGHT_RIGHT")
    right_sub = align in ("LEFT_RIGHT", "RIGHT_RIGHT")
    right = (d >= 0 and right_super) or (d <= 0 and right_sub)
    return width - length if right else 0


def _diagonal_cells(rows, cols, d):
    return [(i, i + d) for i in range(rows) if 0 <= i + d < cols]


def ref_diag_part(x, k=0, padding_value=0, align="RIGHT_LEFT"):
    lo, hi = (k, k) if np.ndim(k) == 0 else k
    rows, cols = x.shape[-2:]
    width = min(rows + min(hi, 0), cols + min(-lo, 0))
    out = np.full((*x.shape[:-2], hi - lo + 1, width), padding_value, dtype=x.dtype)
    for index, d in enumerate(range(hi, lo - 1, -1)):
        cells = _diagonal_cells(rows, cols, d)
        shift = _offset(d, len(cells), width, align)
        for p, (i, j) in enumerate(cells):
            out[..., index, p + shift] = x[..., i, j]
    return out[..., 0, :] if lo == hi else out


def ref_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    lo, hi = (k, k) if np.ndim(k) == 0 else k
    if lo == hi:
        diagonal = diagonal[..., None, :]
    out = np.array(x)
    rows, cols = x.shape[-2:]
    for index, d in enumerate(range(hi, lo - 1, -1)):
        cells = _diagonal_cells(rows, cols, d)
        shift = _offset(d, len(cells), diagonal.shape[-1], align)
        for p, (i, j) in enumerate(cells):
            out[..., i, j] = diagonal[..., index, p + shift]
    return out


def ref_diag(diagonal, k, rows, cols, align="RIGHT_LEFT"):
    lo, hi = (k, k) if np.ndim(k) == 0 else k
    batch = diagonal.shape[:-1] if lo == hi else diagonal.shape[:-2]
    return ref_set_diag(np.zeros((*batch, rows, cols), diagonal.dtype), diagonal, k, align)


def ref_band_part(x, lower, upper):
    rows, cols = x.shape[-2:]
    i, j = np.indices((rows, cols))
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, 0)


CASES = [
    Case("MatrixDiagPartV3", rg.linalg.diag_part, ((3, 3),), lambda x: ref_diag_part(x)),
    Case(
        "MatrixDiagPartV3[k=1]",
        lambda x: rg.linalg.diag_part(x, k=1),
        ((2, 3, 2),),
        lambda x: ref_diag_part(x, 1),
    ),
    *[
        Case(
            f"MatrixDiagPartV3[band,{align}]",
            lambda x, align=align: rg.linalg.diag_part(x, k=(-1, 2), align=align, padding_value=7),
            ((2, 3, 4),),
            lambda x, align=align: ref_diag_part(x, (-1, 2), 7, align),
        )
        for align in ALIGNS
    ],
    Case("MatrixDiagPartV3[1x1]", rg.linalg.diag_part, ((1, 1),), lambda x: ref_diag_part(x)),
    Case("MatrixDiagV3", rg.linalg.diag, ((3,),), np.diag),
    Case(
        "MatrixDiagV3[k=-1]",
        lambda d: rg.linalg.diag(d, k=-1),
        ((2, 2),),
        lambda d: ref_diag(d, -1, 3, 3),
    ),
    *[
        Case(
            f"MatrixDiagV3[band,{align}]",
            lambda d, align=align: rg.linalg.diag(d, k=(-1, 1), num_cols=4, align=align),
            ((2, 3, 3),),
            lambda d, align=align: ref_diag(d, (-1, 1), 3, 4, align),
        )
        for align in ALIGNS
    ],
    Case("MatrixSetDiagV3", rg.linalg.set_diag, ((2, 3, 3), (2, 3)), ref_set_diag),
    Case(
        "MatrixSetDiagV3[band]",
        lambda x, d: rg.linalg.set_diag(x, d, k=(0, 1), align="LEFT_RIGHT"),
        ((3, 4), (2, 3)),
        lambda x, d: ref_set_diag(x, d, (0, 1), "LEFT_RIGHT"),
    ),
    *[
        Case(
            f"MatrixBandPart[{lower},{upper}]",
            lambda x, lower=lower, upper=upper: rg.linalg.band_part(x, lower, upper),
            (shape,),
            lambda x, lower=lower, upper=upper: ref_band_part(x, lower, upper),
        )
        for lower, upper, shape in [
            (0, 1, (3, 3)),
            (-1, 0, (2, 3, 4)),
            (1, -1, (4, 3)),
            (0, 0, (1, 1)),
        ]
    ],
    Case("trace", rg.linalg.trace, ((3, 3),), lambda x: np.trace(x, axis1=-2, axis2=-1)),
    Case("trace[batch]", rg.linalg.trace, ((2, 3, 4),), lambda x: np.trace(x, axis1=-2, axis2=-1)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_reference(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_diag_infers_a_square_matrix_or_the_missing_dimension():
    d = np.arange(1.0, 4.0)
    assert rg.linalg.diag(d, k=1).shape == (4, 4)
    assert rg.linalg.diag(d, k=1, num_rows=3).shape == (3, 4)
    assert rg.linalg.diag(d, k=1, num_cols=5).shape == (3, 5)
    np.testing.assert_array_equal(
        rg.linalg.diag(d, padding_value=9).numpy(), np.where(np.eye(3) > 0, np.diag(d), 9)
    )


def test_band_part_and_diag_part_work_on_any_dtype_and_empty_matrices():
    ints = np.arange(9, dtype=np.int64).reshape(3, 3)
    assert rg.linalg.band_part(ints, 0, 0).numpy().tolist() == np.diag(np.diag(ints)).tolist()
    assert rg.linalg.diag_part(ints > 3).dtype == rg.bool
    assert rg.linalg.trace(ints).numpy() == 12
    assert rg.linalg.diag_part(np.zeros((2, 0, 0))).shape == (2, 0)
    assert rg.linalg.band_part(np.zeros((0, 3)), 0, 0).shape == (0, 3)


def test_integer_diagonals_have_no_gradient():
    x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ints = rg.cast(x, rg.int32)
        outputs = [rg.linalg.band_part(ints, 0, 0), rg.linalg.trace(ints), rg.linalg.diag(ints)]
    for out in outputs:
        assert out.dtype == rg.int32
        assert tape.gradient(out, x) is None


def test_eye_builds_batched_identities():
    np.testing.assert_array_equal(
        rg.eye(2, 3, batch_shape=[2]).numpy(), np.broadcast_to(np.eye(2, 3), (2, 2, 3))
    )
    assert rg.linalg.eye(2, dtype=rg.int32).dtype == rg.int32
    assert rg.eye(0).shape == (0, 0)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.linalg.diag_part([1.0, 2.0]), rg.errors.InvalidArgumentError, "rank >= 2"),
        (
            lambda: rg.linalg.diag_part(rg.ones([3, 3]), k=3),
            rg.errors.InvalidArgumentError,
            "outside a 3x3",
        ),
        (
            lambda: rg.linalg.diag_part(rg.ones([3, 3]), k=(1, 0)),
            rg.errors.InvalidArgumentError,
            "larger than k",
        ),
        (lambda: rg.linalg.diag_part(rg.ones([3, 3]), k="x"), ValueError, "int or a pair"),
        (lambda: rg.linalg.diag_part(rg.ones([3, 3]), align="UP"), ValueError, "align"),
        (
            lambda: rg.linalg.diag_part(rg.ones([3, 3]), padding_value=[1, 2]),
            rg.errors.InvalidArgumentError,
            "scalar",
        ),
        (lambda: rg.linalg.diag(1.0), rg.errors.InvalidArgumentError, "rank >= 1"),
        (
            lambda: rg.linalg.diag(rg.ones([3]), k=(0, 1)),
            rg.errors.InvalidArgumentError,
            "rank >= 2",
        ),
        (
            lambda: rg.linalg.diag(rg.ones([3, 3]), k=(0, 1)),
            rg.errors.InvalidArgumentError,
            "names 2 diagonals",
        ),
        (
            lambda: rg.linalg.diag(rg.ones([3]), k=1, num_rows=2),
            rg.errors.InvalidArgumentError,
            "do not fit",
        ),
        (
            lambda: rg.linalg.diag(rg.ones([3]), num_rows=5, num_cols=5),
            rg.errors.InvalidArgumentError,
            "do not fit",
        ),
        (
            lambda: rg.linalg.set_diag(rg.ones([3, 3]), rg.ones([2])),
            rg.errors.InvalidArgumentError,
            r"shape \(3,\)",
        ),
        (
            lambda: rg.linalg.set_diag(rg.ones([3, 3]), rg.ones([3], rg.float64)),
            TypeError,
            "same dtype",
        ),
        (
            lambda: rg.linalg.band_part(rg.ones([3]), 0, 0),
            rg.errors.InvalidArgumentError,
            "rank >= 2",
        ),
        (
            lambda: rg.linalg.band_part(rg.ones([3, 3]), 4, 0),
            rg.errors.InvalidArgumentError,
            "num_lower",
        ),
        (
            lambda: rg.linalg.band_part(rg.ones([3, 2]), 0, 3),
            rg.errors.InvalidArgumentError,
            "num_upper",
        ),
        (lambda: rg.linalg.trace(rg.ones([3])), rg.errors.InvalidArgumentError, "rank >= 2"),
        (lambda: rg.linalg.trace([True]), TypeError, "Trace"),
        (lambda: rg.eye(-1), rg.errors.InvalidArgumentError, ">= 0"),
    ],
)
def test_errors_name_the_op_and_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()
