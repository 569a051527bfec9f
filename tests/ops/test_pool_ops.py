"""Pooling: values against plain-loop references, gradients (and the gradient ops' own
gradients) against finite differences to second order, TensorFlow's tie rule, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops import nn_reference as ref
from tests.ops.nn_reference import vjp
from tests.ops.table import Case, check_forward, check_gradient


def _pool_cases(kind, x_shape, ksize, strides, padding, label, grad_grad=False):
    """Rows for a pool, its gradient op (vjp) and, if asked, the gradient op's gradient (the
    pool's rows already reach it at order 2; its own row checks its values directly)."""
    pool = rg.nn.max_pool if kind == "max" else rg.nn.avg_pool
    op = ("MaxPool" if kind == "max" else "AvgPool") + ("3D" if len(x_shape) == 5 else "")
    forward = lambda x: pool(x, ksize, strides, padding)  # noqa: E731
    out_shape = tuple(forward(rg.zeros(x_shape)).shape)
    spatial = len(x_shape) - 2
    k = (ksize,) * spatial if isinstance(ksize, int) else tuple(ksize)
    s = (strides,) * spatial if isinstance(strides, int) else tuple(strides)
    if kind == "max":
        rows = [
            Case(f"{op}[{label}]", forward, (x_shape,), lambda x: ref.max_pool(x, k, s, padding)),
            Case(
                f"{op}Grad[{label}]",
                vjp(forward),
                (x_shape, out_shape),
                lambda x, dy: ref.max_pool_grad(x, dy, k, s, padding),
            ),
        ]
        if grad_grad:
            rows.append(
                Case(
                    f"{op}GradGrad[{label}]",
                    vjp(vjp(forward), wrt=1),
                    (x_shape, out_shape, x_shape),
                    lambda x, dy, g: ref.max_pool_grad_grad(x, g, k, s, padding),
                )
            )
    else:
        rows = [
            Case(f"{op}[{label}]", forward, (x_shape,), lambda x: ref.avg_pool(x, k, s, padding)),
            Case(
                f"{op}Grad[{label}]",
                vjp(forward),
                (x_shape, out_shape),
                lambda x, dy: ref.avg_pool_grad(x.shape, dy, k, s, padding),
            ),
        ]
    return rows


def _channels_first(kind):
    pool = rg.nn.max_pool if kind == "max" else rg.nn.avg_pool
    reference = ref.max_pool if kind == "max" else ref.avg_pool
    return Case(
        f"{'Max' if kind == 'max' else 'Avg'}Pool[NCHW]",
        lambda x: pool(x, [1, 1, 2, 2], [1, 1, 2, 1], "SAME", data_format="NCHW"),
        ((1, 2, 3, 4),),
        lambda x: np.transpose(
            reference(np.transpose(x, (0, 2, 3, 1)), (2, 2), (2, 1), "SAME"), (0, 3, 1, 2)
        ),
    )


CASES = [
    *_pool_cases("max", (1, 4, 4, 2), 2, 2, "VALID", "2x2"),
    *_pool_cases("max", (2, 5, 4, 1), 3, 2, "SAME", "SAME,overlapping"),
    *_pool_cases("max", (1, 3, 4, 1), 2, 1, "SAME", "SAME,stride 1", grad_grad=True),
    *_pool_cases("max", (1, 4, 5, 1), [2, 3], [1, 2], "SAME", "rectangular"),
    # windows that tile the input (stride == window): the reshaped gradient, with a
    # remainder left uncovered (VALID), rectangular, 3-D
    *_pool_cases("max", (2, 5, 7, 3), [2, 3], [2, 3], "VALID", "tiled,remainder"),
    *_pool_cases("max", (1, 4, 4, 2, 2), 2, 2, "SAME", "3-D,tiled"),
    *_pool_cases("avg", (1, 4, 4, 2), 2, 2, "VALID", "2x2"),
    *_pool_cases("avg", (2, 5, 4, 1), 3, 2, "SAME", "SAME,overlapping"),
    *_pool_cases("max", (1, 3, 3, 2, 1), 2, 1, "SAME", "3-D", grad_grad=True),
    *_pool_cases("avg", (1, 3, 3, 3, 1), 2, [2, 1, 1], "SAME", "3-D"),
    _channels_first("max"),
    _channels_first("avg"),
    Case(
        "MaxPool[1-D]",
        lambda x: rg.nn.max_pool1d(x, 3, 2, "SAME"),
        ((2, 5, 2),),
        lambda x: ref.max_pool(x[:, None], (1, 3), (1, 2), "SAME")[:, 0],
    ),
    Case(
        "AvgPool[1-D,NCW]",
        lambda x: rg.nn.avg_pool1d(x, 2, 1, "VALID", data_format="NCW"),
        ((1, 2, 4),),
        lambda x: np.transpose(
            ref.avg_pool(np.transpose(x, (0, 2, 1)), (2,), (1,), "VALID"), (0, 2, 1)
        ),
    ),
    Case(
        "MaxPool[explicit]",
        lambda x: rg.nn.max_pool(x - 10, 3, 1, [[0, 0], [1, 1], [0, 1], [0, 0]]),
        ((1, 3, 3, 1),),
        lambda x: ref.max_pool(
            np.pad(x - 10, [(0, 0), (1, 1), (0, 1), (0, 0)], constant_values=-np.inf),
            (3, 3),
            (1, 1),
            "VALID",
        ),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def _pool_grad(x, pool):
    x = rg.constant(np.asarray(x, np.float64))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = pool(x)
    return y.numpy().ravel().tolist(), tape.gradient(y, x).numpy().ravel().tolist()


@pytest.mark.parametrize(
    "values, expected",
    [
        ([1.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]),
        ([3.0, 1.0, 3.0, 3.0], [1.0, 0.0, 0.0, 0.0]),
        ([1.0, 3.0, 3.0, 3.0], [0.0, 1.0, 0.0, 0.0]),
    ],
)
def test_max_pool_gradient_goes_to_the_first_maximum_of_a_window(values, expected):
    # TensorFlow's rule (checked against TF 2.21): ties do not share, the first in row-major
    # order takes the whole gradient.
    _, grad = _pool_grad(
        np.reshape(values, (1, 2, 2, 1)), lambda x: rg.nn.max_pool(x, 2, 2, "VALID")
    )
    assert grad == expected


@pytest.mark.parametrize(
    ("shape", "ksize", "padding"),
    [((3, 6, 8, 4), 2, "VALID"), ((2, 7, 5, 3), [3, 2], "VALID"), ((2, 4, 6, 2), 2, "SAME")],
)
def test_tiled_max_pool_gradient_routes_ties_to_the_first_maximum(shape, ksize, padding):
    # ReLU outputs tie at zero in most windows: each window's gradient still goes to its
    # first maximum only.
    rng = np.random.default_rng(5)
    x = np.maximum(rng.integers(-3, 3, shape), 0).astype(np.float32)
    k = (ksize,) * 2 if isinstance(ksize, int) else tuple(ksize)
    xt = rg.constant(x)
    with rg.GradientTape() as tape:
        tape.watch(xt)
        y = rg.nn.max_pool(xt, k, k, padding)
    dy = rng.standard_normal(tuple(y.shape)).astype(np.float32)
    got = tape.gradient(y, xt, output_gradients=rg.constant(dy)).numpy()
    np.testing.assert_array_equal(got, ref.max_pool_grad(x, dy, k, k, padding))


def test_overlapping_windows_each_route_to_their_first_maximum():
    values, grad = _pool_grad(
        np.reshape([1.0, 5.0, 5.0, 1.0], (1, 1, 4, 1)),
        lambda x: rg.nn.max_pool(x, [1, 3], 1, "VALID"),
    )
    assert values == [5.0, 5.0] and grad == [0.0, 2.0, 0.0, 0.0]


def test_same_average_divides_by_the_elements_inside_the_input():
    x = rg.reshape(rg.constant(np.arange(25.0)), [1, 5, 5, 1])
    y = rg.nn.avg_pool(x, 2, 2, "SAME")[0, :, :, 0].numpy()
    np.testing.assert_allclose(y, [[3.0, 5.0, 6.5], [13.0, 15.0, 16.5], [20.5, 22.5, 24.0]])


def test_max_pool_of_integers_keeps_the_dtype():
    x = rg.reshape(rg.constant([1, 5, 2, 4]), [1, 4, 1])
    y = rg.nn.max_pool(x, 2, 2, "VALID")
    assert y.dtype == rg.int32 and y.numpy().ravel().tolist() == [5, 4]


def test_windows_larger_than_the_input_give_empty_outputs():
    assert rg.nn.max_pool(rg.ones([1, 4, 4, 2]), 5, 1, "VALID").shape == [1, 0, 0, 2]
    assert rg.nn.avg_pool(rg.ones([1, 4, 4, 2]), 5, 1, "SAME").shape == [1, 4, 4, 2]
    assert rg.nn.max_pool(rg.ones([0, 4, 4, 2]), 2, 1, "SAME").shape == [0, 4, 4, 2]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.nn.max_pool(rg.ones([2, 3, 4, 5, 6, 7]), 2, 1, "SAME"), rg.errors.InvalidArgumentError, "MaxPool: input must have rank 3, 4 or 5"),
        (lambda: rg.nn.max_pool2d(rg.ones([2, 3, 4]), 2, 1, "SAME"), rg.errors.InvalidArgumentError, "MaxPool: input must have rank 4"),
        (lambda: rg.nn.avg_pool3d(rg.ones([2, 3, 4, 1]), 2, 1, "SAME"), rg.errors.InvalidArgumentError, "AvgPool: input must have rank 5"),
        (lambda: rg.nn.max_pool(rg.ones([1, 4, 4, 2]), [2, 2, 1, 1], 1, "SAME"), rg.errors.UnimplementedError, "batch or channel"),
        (lambda: rg.nn.max_pool(rg.ones([1, 4, 4, 2]), [2, 2, 2], 1, "SAME"), ValueError, "1, 2 or 4 elements"),
        (lambda: rg.nn.avg_pool(rg.ones([1, 4, 4, 2]), 0, 1, "SAME"), rg.errors.InvalidArgumentError, "ksize` must be positive"),
        (lambda: rg.nn.avg_pool(rg.ones([1, 4, 4, 2], rg.int32), 2, 1, "SAME"), TypeError, "AvgPool: `input` must be a float"),
        (lambda: rg.nn.avg_pool(rg.ones([1, 4, 4, 2]), 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]]), ValueError, "AvgPool: padding must be 'SAME' or 'VALID'"),
        (lambda: rg.nn.max_pool(rg.ones([1, 4, 4, 2]), 2, 1, "SAME", data_format="NWC"), ValueError, "data_format must be 'NHWC' or 'NCHW'"),
        (lambda: rg.nn.max_pool(rg.ones([1, 4, 4, 2]), 2, 1, "same"), ValueError, "padding must be"),
        (lambda: rg.nn.max_pool(rg.ones([1, 2, 2, 1]), 4, 1, [[0, 0], [0, 0], [0, 0], [0, 0]]), rg.errors.InvalidArgumentError, "negative"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
