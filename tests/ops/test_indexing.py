"""Indexing: what ``tensor[key]`` accepts (TensorFlow's rule) and what it refuses."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

A = np.arange(24.0).reshape(2, 3, 4)

KEYS = [
    1, -1, (1, 2), (slice(None), 1), (Ellipsis, 1), (None, 0), (0, Ellipsis, None, slice(None, None, -2)),
    (slice(1, None), slice(None, 2), slice(None, None, 3)), Ellipsis, (slice(5, 9),), (0, slice(-2, None)),
]  # fmt: skip


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_basic_indexing_matches_numpy(key):
    assert rg.constant(A)[key].numpy().tolist() == A[key].tolist()


def test_integer_tensor_indices_and_slice_bounds():
    x = rg.constant(A)
    assert x[rg.constant(1), rg.constant(-1)].numpy().tolist() == A[1, -1].tolist()
    assert x[:, rg.constant(1) :].shape == (2, 2, 4)


@pytest.mark.parametrize(
    "key, error, match",
    [
        ([0, 1], TypeError, "valid indices"),
        (np.array([0]), TypeError, "valid indices"),
        (rg.constant([0, 1]), TypeError, "valid indices"),
        (rg.constant(1.0), TypeError, "valid indices"),
        (True, TypeError, "valid indices"),
        (5, rg.errors.InvalidArgumentError, "out of bounds"),
        ((0, 0, 0, 0), rg.errors.InvalidArgumentError, "rank"),
        ((Ellipsis, Ellipsis), rg.errors.InvalidArgumentError, "single ellipsis"),
        (slice(None, None, 0), rg.errors.InvalidArgumentError, "step"),
        ((Ellipsis, -5), rg.errors.InvalidArgumentError, "dimension 2"),
    ],
)
def test_refused_keys(key, error, match):
    with pytest.raises(error, match=match):
        rg.constant(A)[key]


def test_iteration_unstacks_the_first_axis_differentiably():
    x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        rows = list(x)
        y = rows[0] * rows[1]
    assert [r.numpy().tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0]]
    assert tape.gradient(y, x).numpy().tolist() == [[3.0, 4.0], [1.0, 2.0]]
    with pytest.raises(TypeError, match="scalar"):
        iter(rg.constant(1.0))
