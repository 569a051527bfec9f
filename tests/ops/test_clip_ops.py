"""clip_by_norm, global_norm and clip_by_global_norm: values against NumPy, gradients
(to the tensors and to the clip norms) against finite differences, away from the kink where
a norm equals clip_norm."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of


def _clip(t, clip, axes=None):
    norm = np.sqrt(np.sum(t * t, axis=axes, keepdims=True))
    return t * clip / np.maximum(norm, clip)


def _global_norm(*ts):
    return np.sqrt(sum(np.sum(t * t) for t in ts))


def _clip_global(ts, clip, norm=None):
    norm = _global_norm(*ts) if norm is None else norm
    return [t * clip / max(norm, clip) for t in ts], norm


# Columns scaled so that column 0 (norm >= 1.7) is clipped to 1 and column 1 (norm <= 0.2)
# is not.
COLUMNS = np.array([[2.0, 0.1]])

CASES = [
    # Entries in (0.5, 1): the norm of a (2, 3) tensor is >= 1.2, above any clip_norm <= 1.
    Case("clip_by_norm", rg.clip_by_norm, ((2, 3), ()), _clip, domain=(0.5, 1.0)),
    Case(
        "clip_by_norm[not clipped]",
        lambda t: rg.clip_by_norm(t, 10.0),
        ((2, 3),),
        lambda t: _clip(t, 10.0),
    ),
    Case(
        "clip_by_norm[axes=1]",
        lambda t: rg.clip_by_norm(t, 0.5, axes=[1]),
        ((2, 3),),
        lambda t: _clip(t, 0.5, axes=1),
        domain=(0.5, 1.0),
    ),
    Case(
        "clip_by_norm[axes=0]",
        lambda t: rg.clip_by_norm(t * COLUMNS, 1.0, axes=0),
        ((3, 2),),
        lambda t: _clip(t * COLUMNS, 1.0, axes=0),
        domain=(0.5, 1.0),
    ),
    Case(
        "clip_by_norm[clip_norm per row]",
        lambda t, c: rg.clip_by_norm(t, c, axes=1),
        ((2, 3), (2, 1)),
        lambda t, c: _clip(t, c, axes=1),
        domain=(0.5, 0.8),
    ),
    Case(
        "global_norm", lambda a, b: rg.linalg.global_norm([a, None, b]), ((2, 3), ()), _global_norm
    ),
    Case(
        "clip_by_global_norm",
        lambda a, b, c: rg.clip_by_global_norm([a, b], c),
        ((2, 3), (3,), ()),
        lambda a, b, c: _clip_global([a, b], c),
        domain=(0.5, 1.0),
    ),
    Case(
        "clip_by_global_norm[not clipped]",
        lambda a, b: rg.clip_by_global_norm([a, b], 100.0),
        ((2, 3), ()),
        lambda a, b: _clip_global([a, b], 100.0),
    ),
    Case(
        "clip_by_global_norm[use_norm]",
        lambda a, n: rg.clip_by_global_norm([a], 0.25, use_norm=n),
        ((2, 3), ()),
        lambda a, n: _clip_global([a], 0.25, n),
        domain=(0.5, 1.0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_clip_by_norm_of_zeros_passes_the_gradient_through():
    g = gradient_of(lambda x: rg.clip_by_norm(x, 1.0), rg.zeros([2]))
    assert g.numpy().tolist() == [1.0, 1.0]


def test_clip_by_global_norm_of_zeros_has_a_nan_gradient_like_tensorflow():
    g = gradient_of(lambda x: rg.clip_by_global_norm([x], 1.0)[0][0], rg.zeros([2]))
    assert np.isnan(g.numpy()).all()


def test_negative_clip_norm_counts_as_zero():
    assert rg.clip_by_norm([3.0, 4.0], -1.0).numpy().tolist() == [0.0, 0.0]
    c = rg.constant(-1.0)
    assert rg.clip_by_norm([3.0, 4.0], c).numpy().tolist() == [0.0, 0.0]
    assert gradient_of(lambda c: rg.clip_by_norm([3.0, 4.0], c), c).numpy() == 0.0


def test_clip_norm_is_cast_to_the_dtype_of_t():
    t = rg.constant([3.0, 4.0])
    assert rg.clip_by_norm(t, rg.constant(1.0, rg.float64)).dtype == rg.float32
    assert rg.clip_by_norm(t, rg.constant(1)).numpy().tolist() == [
        np.float32(0.6),
        np.float32(0.8),
    ]


def test_clip_by_global_norm_keeps_none_and_the_norm():
    a = rg.constant([3.0, 4.0], rg.float64)
    clipped, norm = rg.clip_by_global_norm((a, None), 1.0)
    assert clipped[1] is None and norm.numpy() == 5.0 and norm.dtype == rg.float64
    np.testing.assert_allclose(clipped[0].numpy(), [0.6, 0.8])
    clipped, norm = rg.clip_by_global_norm([[3.0], None, [[4.0]]], 1.0)  # Python lists: float32
    assert [None if t is None else t.shape for t in clipped] == [(1,), None, (1, 1)]


def test_clip_by_global_norm_scales_each_tensor_in_its_own_dtype():
    clipped, norm = rg.clip_by_global_norm(
        [rg.constant([3.0])], 1.0, use_norm=rg.constant(2.0, rg.float64)
    )
    assert clipped[0].dtype == rg.float32 and clipped[0].numpy().tolist() == [1.5]
    assert norm.dtype == rg.float64


def test_an_infinite_norm_makes_every_value_nan():
    clipped, norm = rg.clip_by_global_norm([rg.constant([np.inf, 1.0]), rg.ones([2])], 1.0)
    assert norm.numpy() == np.inf
    assert all(np.isnan(t.numpy()).all() for t in clipped)


def test_empty_lists():
    assert rg.linalg.global_norm([]).numpy() == 0.0
    assert rg.linalg.global_norm([]).dtype == rg.float32
    clipped, norm = rg.clip_by_global_norm([], 1.0)
    assert clipped == [] and norm.numpy() == 0.0


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.clip_by_norm(rg.constant([3, 4]), 1),
            TypeError,
            "clip_by_norm: `t` must be a float tensor, got int32",
        ),
        (lambda: rg.clip_by_norm(rg.constant([3 + 4j]), 1.0), TypeError, "got complex128"),
        (
            lambda: rg.clip_by_norm([3.0, 4.0], rg.constant([[1.0, 2.0]])),
            rg.errors.InvalidArgumentError,
            r"clip_norm of shape \(1, 2\) would change the shape \(2,\)",
        ),
        (
            lambda: rg.clip_by_norm([3.0, 4.0], 1.0, axes=[1]),
            rg.errors.InvalidArgumentError,
            "Invalid reduction dimension 1",
        ),
        (
            lambda: rg.linalg.global_norm(rg.ones([2])),
            TypeError,
            "global_norm: `t_list` must be a list or tuple of tensors, got Tensor",
        ),
        (
            lambda: rg.clip_by_global_norm(rg.ones([2]), 1.0),
            TypeError,
            "clip_by_global_norm: `t_list` must be a list",
        ),
        (
            lambda: rg.linalg.global_norm([rg.ones([1]), rg.ones([1], rg.float64)]),
            TypeError,
            "global_norm: all tensors must have the same dtype, got float32 and float64",
        ),
        (
            lambda: rg.linalg.global_norm([rg.constant([1, 2])]),
            TypeError,
            "global_norm: `t_list` must be a float tensor",
        ),
        (
            lambda: rg.clip_by_global_norm([rg.ones([2])], [1.0, 2.0]),
            rg.errors.InvalidArgumentError,
            r"`clip_norm` must be a scalar, got shape \(2,\)",
        ),
        (
            lambda: rg.clip_by_global_norm([rg.ones([2])], 1.0, use_norm=[1.0, 2.0]),
            rg.errors.InvalidArgumentError,
            "`use_norm` must be a scalar",
        ),
        (
            lambda: rg.clip_by_global_norm([rg.ones([2])], rg.constant(1.0, rg.float64)),
            TypeError,
            "same dtype",
        ),
    ],
)
def test_bad_arguments_are_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
