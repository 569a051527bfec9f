"""The shape/indexing ops and reductions against TensorFlow itself, where it is installed:
the same program runs with ``m = retrograd`` and ``m = tensorflow`` on the same inputs, and
values, first and second derivatives must agree. Skipped when TensorFlow is missing (CI
installs neither TensorFlow nor PyTorch)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

tf = pytest.importorskip("tensorflow")

RNG = np.random.default_rng(7)


def _arrays(*shapes):
    return [RNG.uniform(-2.0, 2.0, size=s) for s in shapes]


# (name, program(m, *xs), input shapes, check second derivatives too)
PROGRAMS = [
    ("tile", lambda m, x: m.tile(x, [2, 1, 3]), [(2, 3, 1)], True),
    ("pad", lambda m, x: m.pad(x, [[1, 0], [0, 2]]), [(2, 3)], True),
    ("pad_constant", lambda m, x: m.pad(x, [[1, 0], [2, 2]], constant_values=3.0), [(2, 3)], True),
    ("pad_reflect", lambda m, x: m.pad(x, [[2, 1], [0, 2]], mode="REFLECT"), [(3, 3)], True),
    ("pad_symmetric", lambda m, x: m.pad(x, [[3, 1], [1, 2]], mode="symmetric"), [(3, 2)], True),
    ("gather", lambda m, x: m.gather(x, [[2, 0], [2, 2]]), [(3, 2)], True),
    ("gather_axis", lambda m, x: m.gather(x, [1, 1, 0], axis=-1), [(2, 3, 2)], True),
    (
        "gather_batch",
        lambda m, x: m.gather(x, [[0, 2, 2], [1, 1, 0]], axis=2, batch_dims=1),
        [(2, 2, 3)],
        True,
    ),
    ("gather_nd", lambda m, x: m.gather_nd(x, [[0, 2], [1, 1], [0, 2]]), [(2, 3, 2)], True),
    (
        "gather_nd_batch",
        lambda m, x: m.gather_nd(x, [[[2], [0]], [[1], [1]]], batch_dims=1),
        [(2, 3, 2)],
        True,
    ),
    ("scatter_nd", lambda m, u: m.scatter_nd([[1], [3], [1]], u, [5, 2]), [(3, 2)], True),
    (
        "tensor_scatter_nd_update",
        lambda m, t, u: m.tensor_scatter_nd_update(t, [[3], [1]], u),
        [(5, 2), (2, 2)],
        True,
    ),
    (
        "tensor_scatter_nd_update_duplicates",
        lambda m, t, u: m.tensor_scatter_nd_update(t, [[1], [1]], u),
        [(4,), (2,)],
        True,
    ),
    (
        "tensor_scatter_nd_add",
        lambda m, t, u: m.tensor_scatter_nd_add(t, [[1], [1]], u),
        [(4, 2), (2, 2)],
        True,
    ),
    (
        "boolean_mask",
        lambda m, x: m.boolean_mask(x, [[True, False, True], [False, True, True]], axis=1),
        [(2, 2, 3)],
        True,
    ),
    ("linspace", lambda m, a, b: m.linspace(a, b, 5, axis=-1), [(2, 1), (3,)], True),
    ("meshgrid_xy", lambda m, x, y, z: m.meshgrid(x, y, z), [(2,), (3,), (2,)], True),
    ("meshgrid_ij", lambda m, x, y: m.meshgrid(x, y, indexing="ij"), [(2,), (3,)], True),
    ("reverse", lambda m, x: m.reverse(x, [0, -1]), [(2, 3)], True),
    ("roll", lambda m, x: m.roll(x, [1, -1, 2], [0, 1, 0]), [(3, 4)], True),
    ("einsum_matmul", lambda m, a, b: m.einsum("ij,jk->ik", a, b), [(2, 3), (3, 4)], True),
    ("einsum_trace", lambda m, a: m.einsum("ii", a), [(3, 3)], True),
    ("einsum_diag", lambda m, a: m.einsum("ii->i", a), [(3, 3)], True),
    ("einsum_summed", lambda m, a, b: m.einsum("ij,k->k", a, b), [(2, 3), (4,)], True),
    (
        "einsum_ellipsis",
        lambda m, a, b: m.einsum("...ij,...jk->...ik", a, b),
        [(3, 1, 2, 3), (2, 3, 2)],
        True,
    ),
    ("reduce_logsumexp", lambda m, x: m.reduce_logsumexp(x, axis=1), [(3, 4)], True),
    ("reduce_variance", lambda m, x: m.math.reduce_variance(x, axis=[0]), [(3, 4)], True),
    ("reduce_std", lambda m, x: m.math.reduce_std(x, keepdims=True), [(3, 4)], True),
    ("top_k", lambda m, x: m.math.top_k(x, 2).values, [(3, 4)], True),
    ("sort", lambda m, x: m.sort(x, axis=0), [(3, 4)], True),
    ("sort_descending", lambda m, x: m.sort(x, direction="DESCENDING"), [(3, 4)], True),
    ("l2_normalize", lambda m, x: m.math.l2_normalize(x, axis=1), [(3, 4)], True),
    ("moments", lambda m, x: m.nn.moments(x, [0, 2]), [(3, 4, 2)], False),
    ("unsorted_segment_sum", lambda m, x: m.math.unsorted_segment_sum(x, [0, 2, -1, 2], 3), [(4, 2)], True),
]  # fmt: skip


def _run(m, program, arrays, weights, directions):
    """Values, the gradient of sum(out * weights) and the second derivative along directions."""
    xs = [m.constant(a) for a in arrays]
    with m.GradientTape() as outer:
        outer.watch(xs)
        with m.GradientTape() as inner:
            inner.watch(xs)
            outs = program(m, *xs)
            outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
            loss = sum(m.reduce_sum(y * w) for y, w in zip(outs, weights))
        grads = [m.convert_to_tensor(g) for g in inner.gradient(loss, xs)]
        dotted = sum(m.reduce_sum(g * d) for g, d in zip(grads, directions))
    second = [None if g is None else m.convert_to_tensor(g) for g in outer.gradient(dotted, xs)]
    return [y.numpy() for y in outs], [g.numpy() for g in grads], second


@pytest.mark.parametrize("name, program, shapes, second_order", PROGRAMS, ids=lambda p: p)
def test_values_and_gradients_match_tensorflow(name, program, shapes, second_order):
    arrays = _arrays(*shapes)
    probe = program(tf, *[tf.constant(a) for a in arrays])
    probe = list(probe) if isinstance(probe, (list, tuple)) else [probe]
    weights = [RNG.standard_normal(y.shape) for y in probe]
    directions = [RNG.standard_normal(s) for s in shapes]
    ours = _run(rg, program, arrays, weights, directions)
    theirs = _run(tf, program, arrays, weights, directions)
    for got, want in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=name)
    if second_order:
        for got, want in zip(ours[2], theirs[2]):
            want = np.zeros_like(directions[0]) if want is None else want
            got = np.zeros_like(want) if got is None else got
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=name)


def test_moments_second_derivatives_differ_from_tensorflow_by_the_mean_term():
    # TensorFlow stops the gradient at the mean inside the variance; retrograd does not, so
    # its second derivative is exact: ours - theirs = -2/n^2 (the mean's contribution).
    x = np.array([1.0, 2.0, 4.0])
    rows = []
    for m in (rg, tf):
        t = m.constant(x)
        with m.GradientTape() as outer:
            outer.watch(t)
            with m.GradientTape() as inner:
                inner.watch(t)
                _, variance = m.nn.moments(t, [0])
            picked = m.reduce_sum(
                inner.gradient(variance, t) * m.constant([1.0, 0.0, 0.0], m.float64)
            )
        rows.append(outer.gradient(picked, t).numpy())
    np.testing.assert_allclose(rows[0], [4 / 9, -2 / 9, -2 / 9])
    np.testing.assert_allclose(rows[1], [6 / 9, 0.0, 0.0])


@pytest.mark.parametrize(
    "program",
    [
        lambda m: m.one_hot([0, 2, -1, 5], 3),
        lambda m: m.one_hot([[0, 2]], 3, on_value=5, off_value=-1, axis=1),
        lambda m: m.range(1, 2.5, 0.5),
        lambda m: m.range(0.0, 1.0, 0.1),
        lambda m: m.range(10, 1, -3),
        lambda m: m.range(m.constant(1, m.int64), 3.0),
        lambda m: m.linspace(0.1, 0.7, 7),
        lambda m: m.linspace(-3.0, 7.0, 11),
        lambda m: m.linspace(0, 1, 4),
        lambda m: m.argmax([[1, 3], [4, 2]]),
        lambda m: m.argmin([[1.0, np.nan, 3.0], [np.nan, -np.inf, 0.0]], axis=1),
        lambda m: m.math.argmax([1.0, np.nan, 3.0], output_type=m.int32),
        lambda m: m.argsort([3.0, 1.0, 3.0, 1.0, 2.0]),
        lambda m: m.argsort([3, 1, 3, 1, 2], direction="DESCENDING"),
        lambda m: m.argsort([[3, 1], [1, 3]], axis=0),
        lambda m: m.math.top_k([[1, 5, 2, 5]], 3).indices,
        lambda m: m.sort(m.constant([3, -(2**31), 2**31 - 1, 1], m.int32)),
        lambda m: m.sort(m.constant([3, 0, 255, 1], m.uint8), direction="DESCENDING"),
        lambda m: m.reduce_any([[True, False], [False, False]], axis=1),
        lambda m: m.reduce_all([[True, False], [True, True]], axis=1, keepdims=True),
        lambda m: m.reduce_logsumexp([[1.0, 2.0], [3.0, np.inf], [-np.inf, -np.inf]], axis=1),
        lambda m: m.einsum("ba", np.arange(6.0).reshape(2, 3)),
        lambda m: m.gather_nd([1.0, 2.0], [[1], [7]], bad_indices_policy="IGNORE"),
        lambda m: m.scatter_nd([[1], [7]], [1.0, 2.0], [5], bad_indices_policy="IGNORE"),
        lambda m: m.pad([[1, 2], [3, 4]], [[1, 0], [0, 1]], constant_values=9),
        lambda m: m.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], axis=1, batch_dims=1),
    ],
)
def test_index_and_integer_results_match_tensorflow(program):
    got, want = program(rg), program(tf)
    assert got.dtype.name == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-7)
