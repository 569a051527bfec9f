"""Direct forward-mode rules (Jacobian-vector products) where they are cheaper than the one
derived from the gradient function: elementwise ops, sums, shape ops, matmul, activations.

A rule ``fn(op, *tangents)`` gets one tangent per input (None where an input has none) and
returns one per output, written with retrograd ops so that it differentiates again. Op
types not listed here (Prod, Max, Cumprod, custom gradients, ops added later) get their
forward rule derived from their gradient function by :mod:`retrograd.autodiff.forward`; tests check
every rule here against that derivation and against reverse mode on the op tables.

>>> import retrograd as rg
>>> rg.forward_registry.lookup("Exp").__name__
'_exp_jvp'
"""

from __future__ import annotations

from collections.abc import Callable

from retrograd.core.registry import op_forward
from retrograd.core.tensor import Tensor
from retrograd.ops import (
    array_ops,
    broadcast,
    linalg_ops,
    math_ops,
    nn_ops,
    power_grad_ops,
    reduction_ops,
)


def _plus(*terms: Tensor | None) -> Tensor | None:
    """The sum of the tangents that are present (None when none is)."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    total = present[0]
    for t in present[1:]:
        total = total + t
    return total


def _fit(t: Tensor | None, op, i: int = 0) -> Tensor | None:
    """A tangent broadcast to the shape of output ``i`` (a broadcast input's tangent)."""
    if t is None:
        return None
    shape = op.outputs[i]._value.shape
    return t if t._value.shape == shape else broadcast.broadcast_to(t, shape)


def _or_zeros(t: Tensor | None, like: Tensor) -> Tensor:
    return array_ops.zeros(like._value.shape, like.dtype) if t is None else t


def _scaled(t: Tensor | None, factor: Callable[[], Tensor]) -> Tensor | None:
    return None if t is None else t * factor()


# --- elementwise ops of one input: t * f'(x), with y the output ---------------------------

_UNARY: dict[str, Callable[[Tensor, Tensor, Tensor], Tensor]] = {
    "Neg": lambda t, x, y: -t,
    "Abs": lambda t, x, y: t * math_ops.sign(x),
    "Square": lambda t, x, y: t * (2 * x),
    # (0 where the tangent is 0, as the gradients: TensorFlow's SqrtGrad kernels)
    "Sqrt": lambda t, x, y: power_grad_ops.sqrt_grad(y, t),
    "Rsqrt": lambda t, x, y: power_grad_ops.rsqrt_grad(y, t),
    "Reciprocal": lambda t, x, y: power_grad_ops.reciprocal_grad(y, t),
    "Exp": lambda t, x, y: t * y,
    "Log": lambda t, x, y: t / x,
    "Log1p": lambda t, x, y: t / (1 + x),
    "Expm1": lambda t, x, y: t * (y + 1),
    "Sin": lambda t, x, y: t * math_ops.cos(x),
    "Cos": lambda t, x, y: -t * math_ops.sin(x),
    "Tan": lambda t, x, y: t * (1 + y * y),
    "Tanh": lambda t, x, y: power_grad_ops.tanh_grad(y, t),
    "Sigmoid": lambda t, x, y: power_grad_ops.sigmoid_grad(y, t),
    "Conj": lambda t, x, y: math_ops.conj(t),
    "Relu": lambda t, x, y: nn_ops.relu_grad(t, y),
    "Softplus": lambda t, x, y: t * math_ops.sigmoid(x),
    "Identity": lambda t, x, y: t,
    "ReadVariableOp": lambda t, x, y: t,
}


def _register_unary(op_type: str, formula: Callable[[Tensor, Tensor, Tensor], Tensor]) -> None:
    def rule(op, t):
        return formula(t, op.inputs[0], op.outputs[0])

    rule.__name__ = rule.__qualname__ = f"_{op_type.lower()}_jvp"
    op_forward(op_type)(rule)


for _op_type, _formula in _UNARY.items():
    _register_unary(_op_type, _formula)


@op_forward("Cast")
def _cast_jvp(op, t):
    if op.get_attr("SrcT").is_trainable and op.get_attr("DstT").is_trainable:
        return math_ops.cast(t, op.get_attr("DstT"))
    return None


# --- elementwise ops of two inputs (broadcasting) -------------------------------------------


@op_forward("AddV2")
def _add_jvp(op, tx, ty):
    return _fit(_plus(tx, ty), op)


@op_forward("Sub")
def _sub_jvp(op, tx, ty):
    return _fit(_plus(tx, None if ty is None else -ty), op)


@op_forward("Mul")
def _mul_jvp(op, tx, ty):
    x, y = op.inputs
    return _fit(_plus(_scaled(tx, lambda: y), _scaled(ty, lambda: x)), op)


@op_forward("RealDiv")
def _realdiv_jvp(op, tx, ty):
    y, z = op.inputs[1], op.outputs[0]
    return _fit(_plus(tx, None if ty is None else -(ty * z)) / y, op)


@op_forward("Pow")
def _pow_jvp(op, tx, ty):
    x, y = op.inputs
    z = op.outputs[0]
    dx = _scaled(tx, lambda: y * x ** (y - 1))
    dy = _scaled(ty, lambda: z * math_ops.pow_log_base(x))
    return _fit(_plus(dx, dy), op)


@op_forward("FloorMod")
def _floormod_jvp(op, tx, ty):
    x, y = op.inputs
    return _fit(_plus(tx, _scaled(ty, lambda: -math_ops.floordiv(x, y))), op)


def _select_jvp(op, condition, tx, ty):
    x, y = op.inputs[-2:]
    return _fit(array_ops.where(condition, _or_zeros(tx, x), _or_zeros(ty, y)), op)


@op_forward("Maximum")
def _maximum_jvp(op, tx, ty):
    x, y = op.inputs
    return _select_jvp(op, x >= y, tx, ty)  # ties go to x, as in the gradient


@op_forward("Minimum")
def _minimum_jvp(op, tx, ty):
    x, y = op.inputs
    return _select_jvp(op, x <= y, tx, ty)


@op_forward("SelectV2")
def _selectv2_jvp(op, tc, tx, ty):
    return _select_jvp(op, op.inputs[0], tx, ty)


@op_forward("AddN")
def _add_n_jvp(op, *tangents):
    return _plus(*tangents)


@op_forward("ClipByValue")
def _clip_by_value_jvp(op, tt, tlo, thi):
    # The kernel is maximum(minimum(t, hi), lo); tangents route as its values do.
    t, lo, hi = op.inputs
    inner = array_ops.where(t <= hi, _or_zeros(tt, t), _or_zeros(thi, hi))
    raised_to_lo = math_ops.minimum(t, hi) < lo
    return _fit(array_ops.where(raised_to_lo, _or_zeros(tlo, lo), inner), op)


# --- shape ops: linear, so the tangent goes through the same op -----------------------------


def _reshape_jvp(op, t):
    return array_ops.reshape(t, op.outputs[0]._value.shape)


for _op_type in ("Reshape", "ExpandDims", "Squeeze"):
    op_forward(_op_type)(_reshape_jvp)


@op_forward("Transpose")
def _transpose_jvp(op, t):
    return array_ops.transpose(t, op.get_attr("perm"))


@op_forward("ConcatV2")
def _concat_jvp(op, *tangents):
    parts = [_or_zeros(t, x) for t, x in zip(tangents, op.inputs)]
    return array_ops.concat(parts, op.get_attr("axis"))


@op_forward("Pack")
def _pack_jvp(op, *tangents):
    parts = [_or_zeros(t, x) for t, x in zip(tangents, op.inputs)]
    return array_ops.stack(parts, op.get_attr("axis"))


@op_forward("Unpack")
def _unpack_jvp(op, t):
    return array_ops.unstack(t, axis=op.get_attr("axis"))


@op_forward("SplitV")
def _split_jvp(op, t):
    return array_ops.split(t, list(op.get_attr("size_splits")), op.get_attr("axis"))


@op_forward("StridedSlice")
def _strided_slice_jvp(op, t):
    return array_ops.getitem(t, op.get_attr("index"))


@op_forward("StridedSliceGrad")
def _strided_slice_grad_jvp(op, t, t_like):
    # Linear in its first input; the second only gives the shape.
    return (
        None if t is None else array_ops.strided_slice_grad(t, op.inputs[1], op.get_attr("index"))
    )


@op_forward("BroadcastTo")
def _broadcast_to_jvp(op, t):
    return broadcast.broadcast_to(t, op.get_attr("shape"))


@op_forward("Fill")
def _fill_jvp(op, t):
    return array_ops.fill(op.get_attr("dims"), t)


# --- reductions, matmul, softmax --------------------------------------------------------------


@op_forward("Sum")
def _sum_jvp(op, t):
    return reduction_ops.reduce_sum(t, op.get_attr("axis"), keepdims=op.get_attr("keepdims"))


@op_forward("Mean")
def _mean_jvp(op, t):
    return reduction_ops.reduce_mean(t, op.get_attr("axis"), keepdims=op.get_attr("keepdims"))


@op_forward("Cumsum")
def _cumsum_jvp(op, t):
    axis, exclusive, reverse = (op.get_attr(a) for a in ("axis", "exclusive", "reverse"))
    return reduction_ops.cumsum(t, axis, exclusive=exclusive, reverse=reverse)


@op_forward("MatMul")
def _matmul_jvp(op, ta, tb):
    a, b = op.inputs
    flags = {"transpose_a": op.get_attr("transpose_a"), "transpose_b": op.get_attr("transpose_b")}
    da = None if ta is None else linalg_ops.matmul(ta, b, **flags)
    db = None if tb is None else linalg_ops.matmul(a, tb, **flags)
    return _fit(_plus(da, db), op)


@op_forward("Softmax")
def _softmax_jvp(op, t):
    y = op.outputs[0]
    return y * (t - reduction_ops.reduce_sum(t * y, op.get_attr("axis"), keepdims=True))


@op_forward("LogSoftmax")
def _log_softmax_jvp(op, t):
    softmax = math_ops.exp(op.outputs[0])
    return t - reduction_ops.reduce_sum(t * softmax, op.get_attr("axis"), keepdims=True)


@op_forward("L2Loss")
def _l2_loss_jvp(op, t):
    return reduction_ops.reduce_sum(op.inputs[0] * t)
