"""Elementwise arithmetic: each op is its name, NumPy kernel and accepted kinds, with its
gradient right below. Gradients are written with retrograd ops, so they differentiate too;
broadcast inputs get their gradient back through ``broadcast.reduce_to_inputs``.

>>> import retrograd as rg
>>> rg.exp(0.0), rg.add([1, 2], 3).numpy().tolist()
(<retrograd.Tensor: shape=(), dtype=float32, numpy=1.0>, [4, 5])
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, complex_ops, define, safe_math_ops
from retrograd.ops.addition import add as add  # (its public home is here)
from retrograd.ops.define import (
    ANY,
    FLOAT_COMPLEX,
    NUMERIC,
    REAL,
    add_examples,
    tensor_arg,
    tensor_pair,
)

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)
binary_op = functools.partial(define.binary_op, module=__name__)


def _conj_kernel(x):
    return np.conj(x) if x.dtype.kind == "c" else x


def _sigmoid_kernel(x):
    if x.dtype.kind == "c":
        return np.reciprocal(1 + np.exp(-x)).astype(x.dtype, copy=False)
    # 1/(1+e^-x) for x >= 0 and e^x/(1+e^x) below: never exponentiates a large positive number.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def _squared_difference_kernel(x, y):
    d = x - y
    return d * np.conj(d) if d.dtype.kind == "c" else d * d


# --- binary arithmetic ----------------------------------------------------------------


# Python's operators rather than the ufuncs: on arrays they are the same ufuncs, and on NumPy
# scalars (rank-0 results) they take NumPy's scalar fast path, ten times cheaper than a ufunc.
def _floor_div_kernel(x, y):
    """floor(x / y) for floats, as TensorFlow (floordiv(inf, 2.) is inf, not NaN)."""
    if x.dtype.kind in "fc":
        return np.floor(np.true_divide(x, y))
    return np.floor_divide(x, y)


subtract = binary_op("subtract", "Sub", operator.sub, NUMERIC, "x - y elementwise.", batchable=True)
multiply = binary_op("multiply", "Mul", operator.mul, NUMERIC, "x * y elementwise.", batchable=True)
realdiv = binary_op(
    "realdiv", "RealDiv", operator.truediv, FLOAT_COMPLEX, "x / y for floats.", batchable=True
)
floordiv = binary_op("floordiv", "FloorDiv", _floor_div_kernel, REAL, "x // y, rounding down.")
floormod = binary_op(
    "floormod", "FloorMod", np.mod, REAL, "x % y with the sign of y.", batchable=True
)
pow = binary_op("pow", "Pow", np.power, NUMERIC, "x ** y elementwise.", batchable=True)  # noqa: A001
maximum = binary_op(
    "maximum", "Maximum", np.maximum, REAL, "The larger of x and y.", batchable=True
)
minimum = binary_op(
    "minimum", "Minimum", np.minimum, REAL, "The smaller of x and y.", batchable=True
)
squared_difference = binary_op(
    "squared_difference",
    "SquaredDifference",
    _squared_difference_kernel,
    "ifc",
    "(x - y) * conj(x - y) elementwise: |x - y| ** 2, in x's dtype.",
)
mod = floormod
floor_div = floordiv


@op_gradient("AddV2")
def _add_grad(op, grad):
    skip = op.skip_input_indices
    return broadcast.reduce_to_inputs(op, None if 0 in skip else grad, None if 1 in skip else grad)


@op_gradient("Sub")
def _sub_grad(op, grad):
    skip = op.skip_input_indices
    return broadcast.reduce_to_inputs(op, None if 0 in skip else grad, None if 1 in skip else -grad)


@op_gradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    skip = op.skip_input_indices
    gx = None if 0 in skip else grad * conj(y)
    gy = None if 1 in skip else grad * conj(x)
    return broadcast.reduce_to_inputs(op, gx, gy)


@op_gradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    # 2 * Re(grad) * (x - y): the output is real-valued even in a complex dtype, so only the
    # real part of its gradient counts (grad + conj(grad) is 2 * grad for real tensors).
    x, y = op.inputs
    gx = (grad + conj(grad)) * (x - y)
    return broadcast.reduce_to_inputs(op, gx, -gx)


@op_gradient("RealDiv")
def _realdiv_grad(op, grad):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])
    skip = op.skip_input_indices
    gx = None if 0 in skip else grad / y
    gy = None if 1 in skip else grad * ((-x / y) / y)
    return broadcast.reduce_to_inputs(op, gx, gy)


no_gradient("FloorDiv")


@op_gradient("FloorMod")
def _floormod_grad(op, grad):
    x, y = op.inputs
    return broadcast.reduce_to_inputs(op, grad, grad * -floordiv(x, y))


def pow_log_base(x: Tensor) -> Tensor:
    """log(x) where x > 0, else 0: d(x^y)/dy is taken as 0 there instead of NaN."""
    positive = x > 0 if x.dtype.is_floating else comparison_ops.not_equal(x, 0)
    safe_x = array_ops.where(positive, x, array_ops.ones_like(x))
    return array_ops.where(positive, log(safe_x), array_ops.zeros_like(x))


@op_gradient("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    z = op.outputs[0]
    skip = op.skip_input_indices
    gx = None if 0 in skip else grad * conj(y * x ** (y - 1))
    gy = None if 1 in skip else grad * conj(z * pow_log_base(x))
    return broadcast.reduce_to_inputs(op, gx, gy)


def _maximum_minimum_grad(op, grad, x_wins):
    zeros = array_ops.zeros_like(grad)
    gx = array_ops.where(x_wins, grad, zeros)
    gy = array_ops.where(x_wins, zeros, grad)
    return broadcast.reduce_to_inputs(op, gx, gy)


@op_gradient("Maximum")
def _maximum_grad(op, grad):
    x, y = op.inputs
    return _maximum_minimum_grad(op, grad, x >= y)  # ties go to x, as in TensorFlow


@op_gradient("Minimum")
def _minimum_grad(op, grad):
    x, y = op.inputs
    return _maximum_minimum_grad(op, grad, x <= y)


def divide(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """x / y. Integer tensors are first cast to floats, as Python's ``/`` does.

    >>> import retrograd as rg
    >>> rg.divide(3, 2)
    <retrograd.Tensor: shape=(), dtype=float64, numpy=1.5>
    """
    x, y = true_division_operands("RealDiv", x, y)
    return realdiv(x, y, name=name)


def true_division_operands(op_type: str, x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """``x`` and ``y`` as same-dtype tensors, integers cast to floats as Python's ``/`` does
    (float32 up to 16-bit integers, float64 above)."""
    x, y = tensor_pair(op_type, x, y, NUMERIC)
    if x._value.dtype.kind in "iu":
        target = "float32" if x._value.dtype.itemsize <= 2 else "float64"
        x, y = cast(x, target), cast(y, target)
    return x, y


truediv = divide


# --- unary arithmetic -----------------------------------------------------------------

negative = unary_op("negative", "Neg", operator.neg, NUMERIC, "-x elementwise.", batchable=True)
_abs = unary_op("abs", "Abs", np.abs, REAL, "|x| elementwise.", batchable=True)
_sign = unary_op("sign", "Sign", np.sign, REAL, "-1, 0 or 1 by the sign of x.")
square = unary_op("square", "Square", np.square, NUMERIC, "x * x elementwise.", batchable=True)
sqrt = unary_op("sqrt", "Sqrt", np.sqrt, FLOAT_COMPLEX, "Square root elementwise.", batchable=True)
rsqrt = unary_op(
    "rsqrt",
    "Rsqrt",
    lambda x: np.reciprocal(np.sqrt(x)),
    FLOAT_COMPLEX,
    "1 / sqrt(x).",
    batchable=True,
)
reciprocal = unary_op(
    "reciprocal",
    "Reciprocal",
    np.reciprocal,
    FLOAT_COMPLEX,
    "1 / x elementwise.",
    batchable=True,
)
exp = unary_op("exp", "Exp", np.exp, FLOAT_COMPLEX, "e ** x elementwise.", batchable=True)
log = unary_op(
    "log", "Log", np.log, FLOAT_COMPLEX, "Natural logarithm elementwise.", batchable=True
)
log1p = unary_op(
    "log1p", "Log1p", np.log1p, FLOAT_COMPLEX, "log(1 + x), accurate near 0.", batchable=True
)
expm1 = unary_op(
    "expm1", "Expm1", np.expm1, FLOAT_COMPLEX, "exp(x) - 1, accurate near 0.", batchable=True
)
sin = unary_op("sin", "Sin", np.sin, FLOAT_COMPLEX, "Sine elementwise.", batchable=True)
cos = unary_op("cos", "Cos", np.cos, FLOAT_COMPLEX, "Cosine elementwise.", batchable=True)
tan = unary_op("tan", "Tan", np.tan, FLOAT_COMPLEX, "Tangent elementwise.", batchable=True)
tanh = unary_op(
    "tanh", "Tanh", np.tanh, FLOAT_COMPLEX, "Hyperbolic tangent elementwise.", batchable=True
)
sigmoid = unary_op(
    "sigmoid",
    "Sigmoid",
    _sigmoid_kernel,
    FLOAT_COMPLEX,
    "1 / (1 + exp(-x)), stably.",
    batchable=True,
)
_conj = unary_op("conj", "Conj", _conj_kernel, ANY, "Complex conjugate.", batchable=True)

# The doctests of the ops above (arguments and the result, checked by hand).
add_examples(
    globals(),
    {
        "add": ("[1.0, 2.0], [3.0, 0.5]", "[4.0, 2.5]"),
        "subtract": ("[1.0, 2.0], [3.0, 0.5]", "[-2.0, 1.5]"),
        "multiply": ("[1.0, 2.0], [3.0, 0.5]", "[3.0, 1.0]"),
        "realdiv": ("[1.0, 3.0], [2.0, 4.0]", "[0.5, 0.75]"),
        "floordiv": ("[7.0, -7.0], [2.0, 2.0]", "[3.0, -4.0]"),
        "floormod": ("[7.0, -7.0], [3.0, 3.0]", "[1.0, 2.0]"),
        "pow": ("[2.0, 3.0], [3.0, 2.0]", "[8.0, 9.0]"),
        "maximum": ("[1.0, 5.0], [3.0, 2.0]", "[3.0, 5.0]"),
        "minimum": ("[1.0, 5.0], [3.0, 2.0]", "[1.0, 2.0]"),
        "squared_difference": ("[1.0, 5.0], [3.0, 2.0]", "[4.0, 9.0]"),
        "negative": ("[1.0, -2.0]", "[-1.0, 2.0]"),
        "square": ("[1.5, -2.0]", "[2.25, 4.0]"),
        "sqrt": ("[4.0, 0.25]", "[2.0, 0.5]"),
        "rsqrt": ("[4.0, 0.25]", "[0.5, 2.0]"),
        "reciprocal": ("[4.0, 0.5]", "[0.25, 2.0]"),
        "exp": ("1.0", "2.71828"),
        "log": ("4.0", "1.38629"),
        "log1p": ("1.0", "0.69315"),
        "expm1": ("1.0", "1.71828"),
        "sin": ("1.0", "0.84147"),
        "cos": ("1.0", "0.5403"),
        "tan": ("1.0", "1.55741"),
        "tanh": ("1.0", "0.76159"),
        "sigmoid": ("1.0", "0.73106"),
    },
)


def abs(x: TensorLike, name: str | None = None) -> Tensor:  # noqa: A001
    """``|x|`` elementwise; for complex ``x`` the modulus, as a real tensor (ComplexAbs).

    >>> import retrograd as rg
    >>> rg.abs([-1.5, 2.0]).numpy().tolist(), rg.abs(3 + 4j).numpy().tolist()
    ([1.5, 2.0], 5.0)
    """
    t = tensor_arg("Abs", x, NUMERIC)
    if t._value.dtype.kind == "c":
        return complex_ops.complex_abs(t, name=name)
    return _abs(t, name=name)


def sign(x: TensorLike, name: str | None = None) -> Tensor:
    """-1, 0 or 1 by the sign of ``x``; for complex ``x``, ``x / |x|`` (0 at 0).

    Real signs have a zero gradient; the complex sign is differentiable away from 0.

    >>> import retrograd as rg
    >>> rg.sign([-2.0, 0.0, 3.0]).numpy().tolist(), rg.sign(3j).numpy().tolist()
    ([-1.0, 0.0, 1.0], 1j)
    """
    t = tensor_arg("Sign", x, NUMERIC)
    if t._value.dtype.kind == "c":
        return safe_math_ops.divide_no_nan(t, cast(abs(t), t.dtype), name=name)
    return _sign(t, name=name)


@op_gradient("Neg")
def _neg_grad(op, grad):
    return -grad


@op_gradient("Abs")
def _abs_grad(op, grad):
    return grad * sign(op.inputs[0])


@op_gradient("Sign")
def _sign_grad(op, grad):
    return array_ops.zeros_like(op.inputs[0])


@op_gradient("Square")
def _square_grad(op, grad):
    return grad * (2 * conj(op.inputs[0]))


# The gradients of Sqrt, Rsqrt and Reciprocal are ops of their own: see power_grad_ops.


@op_gradient("Exp")
def _exp_grad(op, grad):
    return grad * conj(op.outputs[0])


@op_gradient("Log")
def _log_grad(op, grad):
    return grad * reciprocal(conj(op.inputs[0]))


@op_gradient("Log1p")
def _log1p_grad(op, grad):
    return grad * reciprocal(1 + conj(op.inputs[0]))


@op_gradient("Expm1")
def _expm1_grad(op, grad):
    return grad * exp(conj(op.inputs[0]))


@op_gradient("Sin")
def _sin_grad(op, grad):
    return grad * cos(conj(op.inputs[0]))


@op_gradient("Cos")
def _cos_grad(op, grad):
    return -grad * sin(conj(op.inputs[0]))


@op_gradient("Tan")
def _tan_grad(op, grad):
    return grad * square(reciprocal(cos(conj(op.inputs[0]))))


# The gradients of tanh and sigmoid are ops of their own (TensorFlow's TanhGrad and
# SigmoidGrad): see power_grad_ops.
@op_gradient("Tanh")
def _tanh_grad(op, grad):
    from retrograd.ops.power_grad_ops import tanh_grad  # (it registers rules of ops here)

    return tanh_grad(conj(op.outputs[0]), grad)


@op_gradient("Sigmoid")
def _sigmoid_grad(op, grad):
    from retrograd.ops.power_grad_ops import sigmoid_grad

    return sigmoid_grad(conj(op.outputs[0]), grad)


@op_gradient("Conj")
def _conj_grad(op, grad):
    return conj(grad)


def conj(x: TensorLike, name: str | None = None) -> Tensor:
    """Complex conjugate; real tensors are returned unchanged (no op is recorded).

    >>> import retrograd as rg
    >>> rg.math.conj([1 + 2j, 3j]).numpy().tolist(), rg.math.conj([1.0]).numpy().tolist()
    ([(1-2j), -3j], [1.0])"""
    if type(x) is Tensor and x._value.dtype.kind != "c":
        return x  # the common case, kept cheap: gradient rules call this on every input
    t = tensor_arg("Conj", x)
    return _conj(t, name=name) if t._value.dtype.kind == "c" else t


# --- casts, sums and clipping -----------------------------------------------------------


def _cast_kernel(x, SrcT, DstT):
    if x.dtype.kind == "c" and not DstT.is_complex:
        x = x.real  # TensorFlow keeps the real part
    return x.astype(DstT.as_numpy_dtype)


_Cast = define_op("Cast", _cast_kernel, batchable=True)


def cast(x: TensorLike, dtype: DTypeLike, name: str | None = None) -> Tensor:
    """Casts ``x`` to ``dtype`` (floats to ints truncate toward zero); same dtype: ``x`` itself.

    >>> import retrograd as rg
    >>> rg.cast([1.7, -1.7], rg.int32).numpy().tolist()
    [1, -1]
    """
    t = tensor_arg("Cast", x)
    target = as_dtype(dtype)
    if t.dtype == target:
        return t
    return execute(_Cast, (t,), {"SrcT": t.dtype, "DstT": target}, name)


@op_gradient("Cast")
def _cast_grad(op, grad):
    source, target = op.get_attr("SrcT"), op.get_attr("DstT")
    if source.is_trainable and target.is_trainable:
        return cast(grad, source)
    return None


def _add_n_kernel(*xs):
    total = xs[0] + xs[1] if len(xs) > 1 else np.copy(xs[0])
    for x in xs[2:]:
        total += x  # into the sum made above (NumPy scalars simply rebind)
    return total


def _add_n_into(*xs, out):
    skipped = False  # `out` is one of the inputs: add every other one (itself again if twice)
    for x in xs:
        if x is out and not skipped:
            skipped = True
            continue
        np.add(out, x, out=out)
    return out


def _add_n_shape(metas):
    """Same-shape inputs: each dimension is the one any input knows."""
    shapes = [m.shape for m in metas if m.shape is not None]
    if not shapes:
        return [(None, metas[0].dtype)]
    dims = [next((d for d in column if d is not None), None) for column in zip(*shapes)]
    return [(tuple(dims), metas[0].dtype)]


_AddN = define_op(
    "AddN", _add_n_kernel, inplace=_add_n_into, shape_fn=_add_n_shape, batchable=True, fresh=True
)


def add_n(inputs: Sequence[TensorLike], name: str | None = None) -> Tensor:
    """The elementwise sum of a list of same-shape, same-dtype tensors.

    >>> import retrograd as rg
    >>> rg.add_n([1.0, 2.0, 3.0])
    <retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>
    """
    if not inputs:
        raise ValueError("add_n: inputs must be a non-empty list of tensors")
    # (variants too: the gradients of a TensorArray's list add up elementwise)
    variant = lambda x: isinstance(x, Tensor) and x._value.dtype.kind == "O"  # noqa: E731
    tensors = [x if variant(x) else tensor_arg("AddN", x, NUMERIC, "inputs") for x in inputs]
    first = tensors[0]
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype != first.dtype or not t.shape.is_compatible_with(first.shape):
            shapes = first.shape.as_list(), t.shape.as_list()  # (both of known rank here)
            raise InvalidArgumentError(
                f"AddN: all inputs must have the same dtype and shape; input 0 is "
                f"{first.dtype.name}{shapes[0]}, input {i} is {t.dtype.name}{shapes[1]}"
            )
    return tensors[0] if len(tensors) == 1 else execute(_AddN, tensors, None, name)


@op_gradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)
