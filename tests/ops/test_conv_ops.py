"""Convolutions: values against plain-loop references, gradients against finite differences
to second order (the gradient ops included), and the errors for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops import nn_reference as ref
from tests.ops.nn_reference import vjp
from tests.ops.table import Case, check_forward, check_gradient


def _conv(strides, padding, dilations=(1, 1)):
    return (
        lambda x, w: rg.nn.conv2d(x, w, strides, padding, dilations=dilations),
        lambda x, w: ref.conv2d(x, w, strides, padding, dilations),
    )


def _conv_case(label, x_shape, w_shape, strides, padding, dilations=(1, 1)):
    fn, reference = _conv(strides, padding, dilations)
    return Case(f"Conv2D[{label}]", fn, (x_shape, w_shape), reference)


def _nchw(x, w):
    y = rg.nn.conv2d(x, w, [1, 1, 2, 1], "SAME", data_format="NCHW")
    return y


def _nchw_reference(x, w):
    y = ref.conv2d(np.transpose(x, (0, 2, 3, 1)), w, (2, 1), "SAME")
    return np.transpose(y, (0, 3, 1, 2))


def _transpose_case(label, dy_shape, w_shape, out_shape, strides, padding, dilations=(1, 1)):
    return Case(
        f"Conv2DBackpropInput[{label}]",
        lambda dy, w: rg.nn.conv2d_transpose(
            dy, w, out_shape, strides, padding, dilations=dilations
        ),
        (dy_shape, w_shape),
        lambda dy, w: ref.conv2d_backprop_input(out_shape, w, dy, strides, padding, dilations),
    )


def _filter_case(label, shapes, strides, padding, dilations=(1, 1)):
    """conv2d's gradient for its filter, as a function of (x, w, dy): a Conv2DBackpropFilter."""
    return Case(
        f"Conv2DBackpropFilter[{label}]",
        vjp(lambda x, w: rg.nn.conv2d(x, w, strides, padding, dilations=dilations), wrt=1),
        shapes,
        lambda x, w, dy: ref.conv2d_backprop_filter(x, w.shape, dy, strides, padding, dilations),
    )


CASES = [
    _conv_case("SAME", (1, 4, 4, 2), (3, 3, 2, 2), (1, 1), "SAME"),
    _conv_case("VALID", (2, 4, 5, 1), (2, 3, 1, 2), (1, 1), "VALID"),
    # SAME with an odd total padding (the extra element goes after) and a stride per axis.
    _conv_case("SAME,odd", (1, 5, 6, 1), (2, 3, 1, 2), (2, 3), "SAME"),
    _conv_case("VALID,strided", (1, 5, 5, 2), (2, 2, 2, 1), (2, 2), "VALID"),
    _conv_case("dilated", (1, 5, 5, 1), (2, 2, 1, 2), (1, 1), "SAME", (2, 2)),
    _conv_case("dilated,strided", (1, 6, 5, 1), (2, 2, 1, 1), (2, 1), "VALID", (2, 1)),
    _conv_case("explicit", (1, 3, 3, 1), (2, 2, 1, 2), (1, 1), [[0, 0], [1, 0], [0, 2], [0, 0]]),
    _conv_case("1x1", (2, 2, 3, 3), (1, 1, 3, 2), (1, 1), "VALID"),
    # stride 1 (the input gradient's contiguous-runs path): a batch, rectangular windows,
    # a dilation per axis, explicit padding on both sides
    _conv_case("dilated,rect", (3, 5, 6, 2), (2, 3, 2, 3), (1, 1), "SAME", (2, 1)),
    _conv_case(
        "explicit,both", (2, 3, 4, 2), (3, 2, 2, 2), (1, 1), [[0, 0], [1, 2], [2, 1], [0, 0]]
    ),
    _conv_case("window=input", (1, 3, 3, 2), (3, 3, 2, 1), (1, 1), "VALID"),
    Case("Conv2D[NCHW]", _nchw, ((1, 2, 4, 3), (2, 2, 2, 2)), _nchw_reference),
    Case(
        "Conv2D[batch dims]",
        lambda x, w: rg.nn.conv2d(x, w, 1, "SAME"),
        ((2, 1, 3, 3, 1), (2, 2, 1, 2)),
        lambda x, w: ref.conv2d(x.reshape(2, 3, 3, 1), w, (1, 1), "SAME").reshape(2, 1, 3, 3, 2),
    ),
    Case(
        "Conv1D",
        lambda x, w: rg.nn.conv1d(x, w, 2, "SAME"),
        ((2, 5, 2), (3, 2, 2)),
        lambda x, w: ref.conv2d(x[:, None], w[None], (1, 2), "SAME")[:, 0],
    ),
    Case(
        "Conv1D[NCW,dilated]",
        lambda x, w: rg.nn.conv1d(x, w, 1, "VALID", data_format="NCW", dilations=2),
        ((1, 2, 6), (2, 2, 1)),
        lambda x, w: np.transpose(
            ref.conv2d(np.transpose(x, (0, 2, 1))[:, None], w[None], (1, 1), "VALID", (1, 2))[:, 0],
            (0, 2, 1),
        ),
    ),
    _transpose_case("SAME", (1, 2, 2, 2), (3, 3, 1, 2), (1, 4, 4, 1), (2, 2), "SAME"),
    _transpose_case("SAME,odd", (1, 3, 3, 1), (3, 3, 2, 1), (1, 5, 5, 2), (2, 2), "SAME"),
    _transpose_case("VALID", (1, 2, 3, 1), (2, 2, 1, 1), (1, 5, 6, 1), (2, 2), "VALID"),
    _transpose_case("dilated", (1, 3, 3, 1), (2, 2, 1, 1), (1, 3, 3, 1), (1, 1), "SAME", (2, 2)),
    _transpose_case("stride 1", (2, 4, 3, 3), (3, 2, 2, 3), (2, 4, 3, 2), (1, 1), "SAME"),
    _filter_case("SAME", ((1, 3, 3, 2), (2, 2, 2, 1), (1, 3, 3, 1)), (1, 1), "SAME"),
    _filter_case(
        "strided,dilated", ((1, 5, 5, 1), (2, 2, 1, 2), (1, 2, 3, 2)), (2, 1), "VALID", (1, 2)
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_same_padding_puts_the_odd_element_after():
    # Width 5, window 2, stride 2: three outputs need one column of padding, put after.
    x = rg.reshape(rg.constant([0.0, 1.0, 2.0, 3.0, 4.0]), [1, 1, 5, 1])
    y = rg.nn.conv2d(x, rg.ones([1, 2, 1, 1]), [1, 2], "SAME")
    assert y.numpy().ravel().tolist() == [1.0, 5.0, 4.0]


def test_output_sizes_follow_tensorflow():
    x = rg.ones([1, 5, 5, 2])
    w = rg.ones([3, 3, 2, 4])
    assert rg.nn.conv2d(x, w, 2, "SAME").shape == [1, 3, 3, 4]
    assert rg.nn.conv2d(x, w, [1, 2, 2, 1], "VALID").shape == [1, 2, 2, 4]
    assert rg.nn.conv2d(x, w, [2, 1], "SAME").shape == [1, 3, 5, 4]
    assert rg.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [0, 1], [0, 0]]).shape == [1, 6, 4, 4]
    # A window larger than the input by one: no output, as in TensorFlow.
    assert rg.nn.conv2d(rg.ones([1, 2, 2, 2]), w[:, :, :, :1], 1, "VALID").shape == [1, 0, 0, 1]
    assert rg.nn.conv2d(rg.ones([0, 3, 3, 2]), w, 1, "SAME").shape == [0, 3, 3, 4]
    assert rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([3, 3, 2, 0]), 1, "SAME").shape == [
        1,
        3,
        3,
        0,
    ]
    assert rg.nn.conv2d(rg.ones([1, 3, 3, 0]), rg.ones([3, 3, 0, 2]), 1, "SAME").numpy().sum() == 0


def test_empty_outputs_have_zero_gradients():
    x, w = rg.ones([1, 2, 2, 1]), rg.ones([3, 3, 1, 1])
    with rg.GradientTape() as tape:
        tape.watch([x, w])
        y = rg.nn.conv2d(x, w, 1, "VALID")
    gx, gw = tape.gradient(y, [x, w])
    assert y.shape == [1, 0, 0, 1]
    assert not gx.numpy().any() and not gw.numpy().any()


def test_conv2d_transpose_is_the_gradient_of_conv2d():
    rng = np.random.default_rng(0)
    x = rg.constant(rng.standard_normal((2, 5, 5, 3)))
    w = rg.constant(rng.standard_normal((3, 3, 3, 4)))
    dy = rg.constant(rng.standard_normal((2, 3, 3, 4)))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.nn.conv2d(x, w, 2, "SAME")
    expected = tape.gradient(y, x, output_gradients=dy)
    got = rg.nn.conv2d_transpose(dy, w, [2, 5, 5, 3], 2, "SAME")
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)


def test_conv_keeps_float32():
    y = rg.nn.conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 1]), 1, "SAME")
    assert y.dtype == rg.float32


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.nn.conv2d(rg.ones([3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, "SAME"), rg.errors.InvalidArgumentError, "Conv2D: input must have rank >= 4"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2]), 1, "SAME"), rg.errors.InvalidArgumentError, "filters must have rank 4"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 4]), rg.ones([2, 2, 2, 1]), 1, "SAME"), rg.errors.InvalidArgumentError, "input depth 4 does not match.*grouped"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, "valid"), ValueError, "padding must be 'SAME', 'VALID'"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 0, "SAME"), rg.errors.InvalidArgumentError, "strides` must be positive"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), [2, 1, 1, 1], "SAME"), rg.errors.UnimplementedError, "batch or channel"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), [1, 1, 1], "SAME"), ValueError, "1, 2 or 4 elements"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, "SAME", dilations=[1, 1, 1, 2]), rg.errors.UnimplementedError, "dilations"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, "SAME", data_format="HWNC"), ValueError, "data_format must be 'NHWC' or 'NCHW'"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, [[0, 0], [1, 1], [1, 1], [1, 0]]), rg.errors.InvalidArgumentError, "zero for the batch and channel"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]), 1, [[1, 1], [1, 1]]), ValueError, "4 \\[before, after\\] pairs"),
        (lambda: rg.nn.conv2d(rg.ones([1, 1, 3, 2]), rg.ones([3, 2, 2, 1]), 1, "VALID"), rg.errors.InvalidArgumentError, "output size would be negative"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2], rg.int32), rg.ones([2, 2, 2, 1], rg.int32), 1, "SAME"), TypeError, "Conv2D.*float"),
        (lambda: rg.nn.conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1], rg.float64), 1, "SAME"), TypeError, "float32 and float64"),
        (lambda: rg.nn.conv2d_transpose(rg.ones([1, 3, 3, 1]), rg.ones([3, 3, 2, 1]), [1, 7, 7, 2], 2, "SAME"), rg.errors.InvalidArgumentError, "spatial size \\[4, 4\\].*\\[3, 3\\]"),
        (lambda: rg.nn.conv2d_transpose(rg.ones([1, 3, 3, 1]), rg.ones([3, 3, 2, 1]), [1, 6, 6, 3], 2, "SAME"), rg.errors.InvalidArgumentError, "output channels 2"),
        (lambda: rg.nn.conv2d_transpose(rg.ones([1, 3, 3, 1]), rg.ones([3, 3, 2, 1]), [6, 6, 2], 2, "SAME"), rg.errors.InvalidArgumentError, "4-D"),
        (lambda: rg.nn.conv2d_transpose(rg.ones([1, 3, 3, 3]), rg.ones([3, 3, 2, 1]), [1, 6, 6, 2], 2, "SAME"), rg.errors.InvalidArgumentError, "input depth 3"),
        (lambda: rg.nn.conv1d(rg.ones([7, 3]), rg.ones([3, 3, 5]), 1, "SAME"), rg.errors.InvalidArgumentError, "Conv1D: input must have rank >= 3"),
        (lambda: rg.nn.conv1d(rg.ones([1, 7, 3]), rg.ones([3, 3, 5]), 1, [[0, 0], [1, 1], [0, 0]]), ValueError, "Conv1D: padding"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_filter_gradient_alone_skips_the_input_gradient():
    # A first layer's input needs no gradient: the rule computes the filter's only, and it
    # equals the filter gradient computed beside the input's.
    rng = np.random.default_rng(3)
    x = rg.constant(rng.standard_normal((2, 5, 5, 3)))
    w = rg.Variable(rng.standard_normal((3, 3, 3, 4)))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.nn.conv2d(x, w, 1, "SAME") ** 2)
    alone = tape.gradient(y, w)
    _, both = tape.gradient(y, [x, w])
    np.testing.assert_allclose(alone.numpy(), both.numpy(), rtol=1e-12)
    with rg.GradientTape() as tape:
        y = rg.reduce_sum(rg.nn.conv2d(x, w, 1, "SAME") ** 2)
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), both.numpy(), rtol=1e-12)
