"""The rest of ``tf.math``: ``multiply_no_nan``, ``xlog1py``, ``reciprocal_no_nan``,
``nextafter``, ``rint``, ``reduce_euclidean_norm``, ``cumulative_logsumexp``,
``invert_permutation``, ``in_top_k``, ``count_nonzero``, ``zero_fraction``, ``confusion_matrix``,
``accumulate_n``, ``lbeta``, ``polyval``, ``is_non_decreasing`` and
``is_strictly_increasing``. The ops' gradients are TensorFlow's; the rest are built from ops.

>>> import retrograd as tf
>>> tf.math.multiply_no_nan([float("inf"), 2.0], [0.0, 3.0]).numpy().tolist()
[0.0, 6.0]
>>> tf.math.count_nonzero([[0, 1], [2, 3]]).numpy().tolist()
3
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, define, math_ops, reduction_ops
from retrograd.ops.define import FLOAT, FLOAT_COMPLEX, NUMERIC, tensor_arg
from retrograd.ops.index_args import build_time_value, static_int
from retrograd.ops.scopes import op_scope

__all__ = [
    "accumulate_n", "confusion_matrix", "count_nonzero", "cumulative_logsumexp", "in_top_k",
    "invert_permutation", "is_non_decreasing", "is_strictly_increasing", "lbeta",
    "multiply_no_nan", "nextafter", "polyval", "reciprocal_no_nan", "reduce_euclidean_norm",
    "rint", "xlog1py", "zero_fraction",
]  # fmt: skip

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)
binary_op = functools.partial(define.binary_op, module=__name__)


def _zero_where(condition, value):
    return np.where(condition, np.zeros_like(value), value)


multiply_no_nan = binary_op(
    "multiply_no_nan",
    "MulNoNan",
    lambda x, y: _zero_where(y == 0, x * y),
    FLOAT_COMPLEX,
    """x * y, and 0 where y is 0 (even where x is inf or nan), with broadcasting.

    >>> import retrograd as tf
    >>> tf.math.multiply_no_nan([float("nan"), 2.0], [0.0, 3.0]).numpy().tolist()
    [0.0, 6.0]
    """,
)
xlog1py = binary_op(
    "xlog1py",
    "Xlog1py",
    lambda x, y: _zero_where(x == 0, x * np.log1p(y)),
    FLOAT_COMPLEX,
    """x * log1p(y), and 0 where x is 0 (whatever y is), with broadcasting.

    >>> import retrograd as tf
    >>> tf.math.xlog1py([0.0, 1.0], [-1.0, 0.0]).numpy().tolist()
    [0.0, 0.0]
    """,
)
_nextafter = binary_op(
    "nextafter",
    "NextAfter",
    np.nextafter,
    FLOAT,
    """The next representable number after ``x1`` towards ``x2``, elementwise.

    >>> import retrograd as tf
    >>> float(tf.math.nextafter(1.0, 2.0)) > 1.0
    True
    """,
)


def nextafter(x1: TensorLike, x2: TensorLike, name: str | None = None) -> Tensor:
    """The next representable number after ``x1`` towards ``x2``, elementwise (float32 and
    float64, with broadcasting).

    >>> import retrograd as tf
    >>> float(tf.math.nextafter(x1=1.0, x2=2.0)) > 1.0
    True
    """
    return _nextafter(x1, x2, name)


rint = unary_op(
    "rint",
    "Rint",
    np.rint,
    FLOAT,
    """The nearest whole number, halves to the even one (floats only).

    >>> import retrograd as tf
    >>> tf.math.rint([0.5, 1.5, -2.5, 2.6]).numpy().tolist()
    [0.0, 2.0, -2.0, 3.0]
    """,
)
no_gradient("Rint")


def reciprocal_no_nan(x: TensorLike, name: str | None = None) -> Tensor:
    """1 / x, and 0 where x is 0 (floats and complex numbers).

    >>> import retrograd as tf
    >>> tf.math.reciprocal_no_nan([0.0, 2.0]).numpy().tolist()
    [0.0, 0.5]
    """
    from retrograd.ops.safe_math_ops import divide_no_nan

    x = tensor_arg("DivNoNan", x, FLOAT_COMPLEX)
    with op_scope(name or "reciprocal_no_nan"):
        return divide_no_nan(array_ops.ones_like(x), x)


@op_gradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return broadcast.reduce_to_inputs(op, multiply_no_nan(grad, y), multiply_no_nan(x, grad))


@op_gradient("Xlog1py")
def _xlog1py_grad(op, grad):
    from retrograd.ops.safe_math_ops import xdivy

    x, y = op.inputs
    nonzero = math_ops.cast(comparison_ops.not_equal(x, 0), x.dtype)
    gx = grad * xlog1py(nonzero, y)
    gy = grad * xdivy(x, y + 1.0)
    return broadcast.reduce_to_inputs(op, gx, gy)


@op_gradient("NextAfter")
def _nextafter_grad(op, grad):
    return broadcast.reduce_to_inputs(op, grad, array_ops.zeros_like(grad))


# -- reductions along an axis ---------------------------------------------------------------
def _euclidean_kernel(x, axis, keepdims):
    squares = (x * np.conj(x)).real if x.dtype.kind == "c" else x.astype(np.float64) * x
    out = np.sqrt(np.sum(squares, axis=axis, keepdims=keepdims))
    return out.astype(x.dtype)


_EuclideanNorm = define_op("EuclideanNorm", _euclidean_kernel)


def reduce_euclidean_norm(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """sqrt(sum(|x|**2)) over ``axis`` (all axes when None); integer norms are truncated.

    >>> import retrograd as tf
    >>> tf.math.reduce_euclidean_norm([[3, 4], [1, 1]], axis=1).numpy().tolist()
    [5, 1]
    """
    x = tensor_arg("EuclideanNorm", input_tensor, NUMERIC, "input_tensor")
    axes = reduction_ops.normalize_axes("EuclideanNorm", axis, x._value.ndim)
    return execute(_EuclideanNorm, (x,), {"axis": axes, "keepdims": bool(keepdims)}, name)


@op_gradient("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    x, output = op.inputs[0], op.outputs[0]
    if not op.get_attr("keepdims"):
        axes = op.get_attr("axis")
        kept = [1 if axes is None or i in axes else d for i, d in enumerate(x.shape)]
        output, grad = array_ops.reshape(output, kept), array_ops.reshape(grad, kept)
    return grad * x / output  # (TensorFlow's x / (output / grad), linear in grad)


def _logsumexp_kernel(x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.logaddexp.accumulate(x, axis=axis, dtype=x.dtype)
    if exclusive:
        head = np.full_like(np.take(out, [0], axis=axis), -np.inf)
        out = np.concatenate([head, np.delete(out, -1, axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


_CumulativeLogsumexp = define_op("CumulativeLogsumexp", _logsumexp_kernel)


def cumulative_logsumexp(
    x: TensorLike,
    axis: TensorLike = 0,
    exclusive: bool = False,
    reverse: bool = False,
    name: str | None = None,
) -> Tensor:
    """log(cumsum(exp(x))) along ``axis``, computed stably (floats only).

    >>> import retrograd as tf
    >>> [round(v, 4) for v in tf.math.cumulative_logsumexp([0.0, 0.0]).numpy().tolist()]
    [0.0, 0.6931]
    """
    x = tensor_arg("CumulativeLogsumexp", x, FLOAT)
    if x._value.ndim == 0:
        raise InvalidArgumentError("CumulativeLogsumexp: input must have rank >= 1, got a scalar")
    (axis,) = reduction_ops.normalize_axes("CumulativeLogsumexp", axis, x._value.ndim)
    attrs = {"axis": axis, "exclusive": bool(exclusive), "reverse": bool(reverse)}
    return execute(_CumulativeLogsumexp, (x,), attrs, name)


@op_gradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    # d out_i / d x_j = exp(x_j - out_i) for the j summed into out_i: the gradient is
    # sum_i grad_i * exp(x_j - out_i), with exponents <= 0 (TensorFlow's value, computed as a
    # product with a masked matrix so that it is linear in grad, as forward mode needs).
    x, out = op.inputs[0], op.outputs[0]
    axis, n = op.get_attr("axis"), plain_dims(x.shape)[op.get_attr("axis")]
    i, j = np.indices((n, n))
    into = {(False, False): j <= i, (True, False): j < i, (False, True): j >= i,
            (True, True): j > i}[(op.get_attr("exclusive"), op.get_attr("reverse"))]  # fmt: skip
    last = x.ndim - 1
    perm = [d for d in range(x.ndim) if d != axis] + [axis]
    xs, outs, grads = (v if axis == last else array_ops.transpose(v, perm) for v in (x, out, grad))
    exponent = array_ops.expand_dims(xs, -2) - array_ops.expand_dims(outs, -1)  # [.., i, j]
    lowest = array_ops.ones_like(exponent) * -np.inf
    weights = math_ops.exp(array_ops.where(into, exponent, lowest))
    gx = array_ops.squeeze(array_ops.expand_dims(grads, -2) @ weights, -2)
    return gx if axis == last else array_ops.transpose(gx, list(np.argsort(perm)))


def _invert_permutation_kernel(x):
    n = x.shape[0]
    out = np.full_like(x, -1)
    for i, v in enumerate(x.tolist()):
        if not 0 <= v < n:
            raise InvalidArgumentError(f"{v} is not between 0 and {n}")
        if out[v] != -1:
            raise InvalidArgumentError(f"{v} is duplicated in the input.")
        out[v] = i
    return out


_InvertPermutation = define_op("InvertPermutation", _invert_permutation_kernel)
no_gradient("InvertPermutation")


def invert_permutation(x: TensorLike, name: str | None = None) -> Tensor:
    """The inverse permutation: ``y[x[i]] = i`` (``x`` an int32/int64 vector of 0..n-1).

    >>> import retrograd as tf
    >>> tf.math.invert_permutation([3, 4, 0, 2, 1]).numpy().tolist()
    [2, 4, 3, 0, 1]
    """
    t = convert_to_tensor(x)
    if t.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(
            f"Value for attr 'T' of {t.dtype.name} is not in the list of allowed values: "
            f"int32, int64"
        )
    if t._value.ndim != 1:
        raise InvalidArgumentError("invert_permutation expects a 1D vector.")
    return execute(_InvertPermutation, (t,), None, name)


def in_top_k(
    targets: TensorLike, predictions: TensorLike, k: TensorLike, name: str | None = None
) -> Tensor:
    """Whether each row's target class is among its ``k`` highest predictions (classes tied
    at the boundary all count; a row with a non-finite prediction or a target out of range
    is False).

    >>> import retrograd as tf
    >>> tf.math.in_top_k([0, 1], [[1.0, 1.0, 0.0], [0.0, 2.0, 3.0]], 1).numpy().tolist()
    [True, False]
    """
    p = tensor_arg("InTopKV2", predictions, FLOAT, "predictions")
    t = tensor_arg("InTopKV2", targets, "iu", "targets")
    with op_scope(name or "in_top_k"):
        classes = p.shape[-1]
        valid = comparison_ops.logical_and(t >= 0, t < classes)
        safe = array_ops.where(valid, t, array_ops.zeros_like(t))
        from retrograd.ops.gather_ops import gather

        target = gather(p, safe, axis=1, batch_dims=1)[:, None]
        above = reduction_ops.reduce_sum(math_ops.cast(p > target, dtypes.int32), axis=1)
        finite = reduction_ops.reduce_all(comparison_ops.is_finite(p), axis=1)
        k = math_ops.cast(k, dtypes.int32)
        return comparison_ops.logical_and(comparison_ops.logical_and(valid, finite), above < k)


# -- built from ops ---------------------------------------------------------------------------
def count_nonzero(
    input: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool | None = None,
    dtype: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """How many entries along ``axis`` are not zero (not False, not ""), as ``dtype``.

    >>> import retrograd as tf
    >>> tf.math.count_nonzero([[0, 1], [2, 0]], axis=1).numpy().tolist()
    [1, 1]
    """
    x = convert_to_tensor(input)
    with op_scope(name or "count_nonzero"):
        nonzero = comparison_ops.not_equal(x, array_ops.zeros([], x.dtype))
        counts = math_ops.cast(nonzero, dtypes.int64)
        total = reduction_ops.reduce_sum(counts, axis=axis, keepdims=bool(keepdims))
        return math_ops.cast(total, dtype)


def zero_fraction(value: TensorLike, name: str | None = None) -> Tensor:
    """The fraction of ``value``'s entries that are zero, as float32 (nan when empty).

    >>> import retrograd as tf
    >>> float(tf.math.zero_fraction([0, 1, 0, 2]))
    0.5
    """
    x = convert_to_tensor(value)
    with op_scope(name or "zero_fraction"):
        zeros = reduction_ops.reduce_sum(
            math_ops.cast(comparison_ops.equal(x, array_ops.zeros([], x.dtype)), dtypes.int64)
        )
        size = math_ops.cast(array_ops.size(x, out_type=dtypes.int64), dtypes.float32)
        return math_ops.cast(zeros, dtypes.float32) / size


def confusion_matrix(
    labels: TensorLike,
    predictions: TensorLike,
    num_classes: TensorLike | None = None,
    weights: TensorLike | None = None,
    dtype: DTypeLike = dtypes.int32,
    name: str | None = None,
) -> Tensor:
    """counts[i, j]: how many (or what weight of) examples of class ``labels`` = i were
    predicted as ``predictions`` = j; ``num_classes`` defaults to the largest class + 1.

    >>> import retrograd as tf
    >>> tf.math.confusion_matrix([1, 2, 0], [2, 2, 0]).numpy().tolist()
    [[1, 0, 0], [0, 0, 1], [0, 0, 1]]
    """
    from retrograd.ops.debug_ops import assert_less, assert_non_negative
    from retrograd.ops.gather_ops import unsorted_segment_sum

    dtype = dtypes.as_dtype(dtype)
    with op_scope(name or "confusion_matrix"):
        lab = math_ops.cast(convert_to_tensor(labels), dtypes.int64)
        pred = math_ops.cast(convert_to_tensor(predictions), dtypes.int64)
        assert_non_negative(lab, message="`labels` contains negative values")
        assert_non_negative(pred, message="`predictions` contains negative values")
        if num_classes is None:
            top = math_ops.maximum(reduction_ops.reduce_max(lab), reduction_ops.reduce_max(pred))
            n = int(build_time_value("ConfusionMatrix", top, "num_classes")) + 1
        else:
            n = static_int("ConfusionMatrix", num_classes, "num_classes")
            assert_less(lab, np.int64(n), message="`labels` out of bound")
            assert_less(pred, np.int64(n), message="`predictions` out of bound")
        w = array_ops.ones_like(lab, dtype) if weights is None else math_ops.cast(weights, dtype)
        flat = unsorted_segment_sum(w, lab * n + pred, n * n)
        return array_ops.reshape(flat, [n, n])


def accumulate_n(
    inputs: Sequence[TensorLike],
    shape: ShapeLike | None = None,
    tensor_dtype: DTypeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """The sum of same-shape, same-dtype tensors (``add_n``; TensorFlow 2 computes it so).

    >>> import retrograd as tf
    >>> tf.math.accumulate_n([[1.0, 2.0], [3.0, 4.0]]).numpy().tolist()
    [4.0, 6.0]
    """
    from retrograd.core.shapes import TensorShape

    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError(
            "inputs must be a list of at least one Tensor with the same dtype and shape"
        )
    tensors = [convert_to_tensor(t) for t in inputs]
    merged = TensorShape(shape)
    for t in tensors:
        merged = merged.merge_with(t.shape)
    if len({t.dtype for t in tensors}) > 1 or (
        tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != tensors[0].dtype
    ):
        raise ValueError(
            "inputs must be a list of at least one Tensor with the same dtype and shape"
        )
    return math_ops.add_n(tensors, name=name)


def lbeta(x: TensorLike, name: str | None = None) -> Tensor:
    """log |Beta(x)| over the last dimension: sum(lgamma(x)) - lgamma(sum(x)).

    >>> import retrograd as tf
    >>> round(float(tf.math.lbeta([1.0, 2.0])), 4)  # log(1/2)
    -0.6931
    """
    from retrograd.ops.special_ops import lgamma

    with op_scope(name or "lbeta"):
        x = convert_to_tensor(x)
        log_prod = reduction_ops.reduce_sum(lgamma(x), axis=[-1])
        return log_prod - lgamma(reduction_ops.reduce_sum(x, axis=[-1]))


def polyval(coeffs: list, x: TensorLike, name: str | None = None) -> Tensor:
    """The polynomial with ``coeffs`` (highest power first, a list) at ``x`` (Horner).

    >>> import retrograd as tf
    >>> int(tf.math.polyval([1, 2, 3], 2))  # 4 + 4 + 3
    11
    """
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    with op_scope(name or "polyval"):
        x = convert_to_tensor(x)
        if not coeffs:
            return array_ops.zeros_like(x)
        p = convert_to_tensor(coeffs[0])
        for c in coeffs[1:]:
            p = convert_to_tensor(c) + p * x
        return p


def _monotone(x: TensorLike, strict: bool, name: str | None, scope: str) -> Tensor:
    t = convert_to_tensor(x)
    if t._value.dtype.kind not in "iuf":
        raise TypeError(f"Expected x to be numeric, instead found: {t}")
    with op_scope(name or scope):
        flat = array_ops.reshape(t, [-1])
        compare = comparison_ops.less if strict else comparison_ops.less_equal
        return reduction_ops.reduce_all(compare(flat[:-1], flat[1:]))


def is_non_decreasing(x: TensorLike, name: str | None = None) -> Tensor:
    """Whether ``x``'s entries (in row-major order) never decrease (True with < 2 entries).

    >>> import retrograd as tf
    >>> bool(tf.math.is_non_decreasing([1, 1, 2]))
    True
    """
    return _monotone(x, False, name, "is_non_decreasing")


def is_strictly_increasing(x: TensorLike, name: str | None = None) -> Tensor:
    """Whether ``x``'s entries (in row-major order) always increase (True with < 2 entries).

    >>> import retrograd as tf
    >>> bool(tf.math.is_strictly_increasing([1, 1, 2]))
    False
    """
    return _monotone(x, True, name, "is_strictly_increasing")
