"""The shape/indexing ops and reductions for the comparison with TensorFlow
(tests/ops/test_against_tensorflow_array_reduce.py; goldens made by
make_tf_comparison_goldens.py): each program written once against a library namespace
``m``. Plain code: no TensorFlow or retrograd import here.
"""

from __future__ import annotations

import numpy as np

# (name, program(m, *xs), input shapes, check second derivatives too)
PROGRAMS = [
    ("tile", lambda m, x: m.tile(x, [2, 1, 3]), [(2, 3, 1)], True),
    ("pad", lambda m, x: m.pad(x, [[1, 0], [0, 2]]), [(2, 3)], True),
    ("pad_constant", lambda m, x: m.pad(x, [[1, 0], [2, 2]], constant_values=3.0), [(2, 3)], True),
    ("pad_reflect", lambda m, x: m.pad(x, [[2, 1], [0, 2]], mode="REFLECT"), [(3, 3)], True),
    ("pad_symmetric", lambda m, x: m.pad(x, [[3, 1], [1, 2]], mode="symmetric"), [(3, 2)], True),
    ("gather", lambda m, x: m.gather(x, [[2, 0], [2, 2]]), [(3, 2)], True),
    ("gather_axis", lambda m, x: m.gather(x, [1, 1, 0], axis=-1), [(2, 3, 2)], True),
    ("gather_batch", lambda m, x: m.gather(x, [[0, 2, 2], [1, 1, 0]], axis=2, batch_dims=1), [(2, 2, 3)], True),
    ("gather_nd", lambda m, x: m.gather_nd(x, [[0, 2], [1, 1], [0, 2]]), [(2, 3, 2)], True),
    ("gather_nd_batch", lambda m, x: m.gather_nd(x, [[[2], [0]], [[1], [1]]], batch_dims=1), [(2, 3, 2)], True),
    ("scatter_nd", lambda m, u: m.scatter_nd([[1], [3], [1]], u, [5, 2]), [(3, 2)], True),
    ("tensor_scatter_nd_update", lambda m, t, u: m.tensor_scatter_nd_update(t, [[3], [1]], u), [(5, 2), (2, 2)], True),
    ("tensor_scatter_nd_update_duplicates", lambda m, t, u: m.tensor_scatter_nd_update(t, [[1], [1]], u), [(4,), (2,)], True),
    ("tensor_scatter_nd_add", lambda m, t, u: m.tensor_scatter_nd_add(t, [[1], [1]], u), [(4, 2), (2, 2)], True),
    ("tensor_scatter_nd_sub", lambda m, t, u: m.tensor_scatter_nd_sub(t, [[1], [1]], u), [(4, 2), (2, 2)], True),
    ("tensor_scatter_nd_min", lambda m, t, u: m.tensor_scatter_nd_min(t, [[1], [3], [1]], u), [(4, 2), (3, 2)], True),
    ("tensor_scatter_nd_max", lambda m, t, u: m.tensor_scatter_nd_max(t, [[1], [3], [1]], u), [(4, 2), (3, 2)], True),
    ("tensor_scatter_nd_max_ties", lambda m, t, u: m.tensor_scatter_nd_max(m.concat([t, t[:1]], 0), [[1], [0], [1], [2]], m.concat([u, u[:1], t[:1] + 0.0], 0)), [(2, 2), (2, 2)], True),
    ("boolean_mask", lambda m, x: m.boolean_mask(x, [[True, False, True], [False, True, True]], axis=1), [(2, 2, 3)], True),
    ("linspace", lambda m, a, b: m.linspace(a, b, 5, axis=-1), [(2, 1), (3,)], True),
    ("meshgrid_xy", lambda m, x, y, z: m.meshgrid(x, y, z), [(2,), (3,), (2,)], True),
    ("meshgrid_ij", lambda m, x, y: m.meshgrid(x, y, indexing="ij"), [(2,), (3,)], True),
    ("reverse", lambda m, x: m.reverse(x, [0, -1]), [(2, 3)], True),
    ("roll", lambda m, x: m.roll(x, [1, -1, 2], [0, 1, 0]), [(3, 4)], True),
    ("einsum_matmul", lambda m, a, b: m.einsum("ij,jk->ik", a, b), [(2, 3), (3, 4)], True),
    ("einsum_trace", lambda m, a: m.einsum("ii", a), [(3, 3)], True),
    ("einsum_diag", lambda m, a: m.einsum("ii->i", a), [(3, 3)], True),
    ("einsum_summed", lambda m, a, b: m.einsum("ij,k->k", a, b), [(2, 3), (4,)], True),
    ("einsum_ellipsis", lambda m, a, b: m.einsum("...ij,...jk->...ik", a, b), [(3, 1, 2, 3), (2, 3, 2)], True),
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


def arrays(name: str, shapes: list) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(map(ord, name)))
    return [rng.uniform(-2.0, 2.0, size=s) for s in shapes]


def moments_second_derivative(m) -> np.ndarray:
    """A row of the Hessian of the variance of ``x`` (see the test for why it differs)."""
    t = m.constant(np.array([1.0, 2.0, 4.0]))
    with m.GradientTape() as outer:
        outer.watch(t)
        with m.GradientTape() as inner:
            inner.watch(t)
            _, variance = m.nn.moments(t, [0])
        picked = m.reduce_sum(inner.gradient(variance, t) * m.constant([1.0, 0.0, 0.0], m.float64))
    return outer.gradient(picked, t).numpy()


INTEGER_PROGRAMS = {
    "one_hot": lambda m: m.one_hot([0, 2, -1, 5], 3),
    "one_hot_values": lambda m: m.one_hot([[0, 2]], 3, on_value=5, off_value=-1, axis=1),
    "range_half": lambda m: m.range(1, 2.5, 0.5),
    "range_tenth": lambda m: m.range(0.0, 1.0, 0.1),
    "range_down": lambda m: m.range(10, 1, -3),
    "range_int64": lambda m: m.range(m.constant(1, m.int64), 3.0),
    "linspace_sevenths": lambda m: m.linspace(0.1, 0.7, 7),
    "linspace_eleven": lambda m: m.linspace(-3.0, 7.0, 11),
    "linspace_ints": lambda m: m.linspace(0, 1, 4),
    "argmax": lambda m: m.argmax([[1, 3], [4, 2]]),
    "argmin_nan": lambda m: m.argmin([[1.0, np.nan, 3.0], [np.nan, -np.inf, 0.0]], axis=1),
    "argmax_nan": lambda m: m.math.argmax([1.0, np.nan, 3.0], output_type=m.int32),
    "argsort": lambda m: m.argsort([3.0, 1.0, 3.0, 1.0, 2.0]),
    "argsort_descending": lambda m: m.argsort([3, 1, 3, 1, 2], direction="DESCENDING"),
    "argsort_axis": lambda m: m.argsort([[3, 1], [1, 3]], axis=0),
    "top_k_indices": lambda m: m.math.top_k([[1, 5, 2, 5]], 3).indices,
    "sort_int32": lambda m: m.sort(m.constant([3, -(2**31), 2**31 - 1, 1], m.int32)),
    "sort_uint8": lambda m: m.sort(m.constant([3, 0, 255, 1], m.uint8), direction="DESCENDING"),
    "reduce_any": lambda m: m.reduce_any([[True, False], [False, False]], axis=1),
    "reduce_all": lambda m: m.reduce_all([[True, False], [True, True]], axis=1, keepdims=True),
    "reduce_logsumexp_inf": lambda m: m.reduce_logsumexp([[1.0, 2.0], [3.0, np.inf], [-np.inf, -np.inf]], axis=1),
    "einsum_transpose": lambda m: m.einsum("ba", np.arange(6.0).reshape(2, 3)),
    "gather_nd_ignore": lambda m: m.gather_nd([1.0, 2.0], [[1], [7]], bad_indices_policy="IGNORE"),
    "scatter_nd_ignore": lambda m: m.scatter_nd([[1], [7]], [1.0, 2.0], [5], bad_indices_policy="IGNORE"),
    "pad_ints": lambda m: m.pad([[1, 2], [3, 4]], [[1, 0], [0, 1]], constant_values=9),
    "gather_batch_ints": lambda m: m.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], axis=1, batch_dims=1),
}  # fmt: skip
