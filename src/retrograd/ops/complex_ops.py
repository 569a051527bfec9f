"""Complex numbers: building them (``complex``) and taking them apart (``real``, ``imag``,
``angle`` and the modulus behind ``abs``).

Gradients follow TensorFlow's convention: for a real loss ``L`` of a complex ``z`` the
gradient is ``dL/dRe(z) + i*dL/dIm(z)`` (twice the conjugate Wirtinger derivative). A
holomorphic op ``w = f(z)`` therefore passes back ``grad * conj(f'(z))``, which is why the
rules of ``exp``, ``sin``, ``mul``... conjugate their derivative.

>>> import retrograd as rg
>>> z = rg.complex(3.0, 4.0)
>>> z
<retrograd.Tensor: shape=(), dtype=complex64, numpy=(3+4j)>
>>> [t.numpy().tolist() for t in (rg.abs(z), rg.math.real(z), rg.math.imag(z), rg.math.angle(z))]
[5.0, 3.0, 4.0, 0.9272952079772949]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, math_ops, safe_math_ops
from retrograd.ops.define import FLOAT_COMPLEX, NUMERIC, tensor_arg, tensor_pair

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _complex_kernel(real, imag):
    shape = np.broadcast_shapes(real.shape, imag.shape)
    out = np.broadcast_to(real, shape).astype(_COMPLEX_OF[real.dtype])
    out.imag = imag  # assigned, not added: real + 1j * inf would make the real part nan
    return out


_Complex = define_op("Complex", _complex_kernel)
_Real = define_op("Real", np.real)
_Imag = define_op("Imag", np.imag)
_Angle = define_op("Angle", np.angle)
_ComplexAbs = define_op("ComplexAbs", np.abs)


def complex(real: TensorLike, imag: TensorLike, name: str | None = None) -> Tensor:  # noqa: A001
    """``real + i * imag`` from two float32 (→ complex64) or float64 (→ complex128) tensors,
    with broadcasting.

    >>> import retrograd as rg
    >>> rg.complex([1.0, 2.0], 0.5).numpy().tolist()
    [(1+0.5j), (2+0.5j)]
    """
    re, im = tensor_pair("Complex", real, imag, "f")
    if re._value.dtype not in _COMPLEX_OF:
        raise TypeError(
            f"Complex: `real` and `imag` must be float32 or float64 tensors, got {re.dtype.name}"
        )
    broadcast_dims([re._value.shape, im._value.shape], "Complex")
    return execute(_Complex, (re, im), None, name)


def real(input: TensorLike, name: str | None = None) -> Tensor:
    """The real part of a complex tensor (float32 for complex64); a real tensor itself.

    >>> import retrograd as rg
    >>> rg.math.real([1 + 2j, -3j]).numpy().tolist()
    [1.0, -0.0]
    """
    t = tensor_arg("Real", input, NUMERIC, "input")
    return execute(_Real, (t,), None, name) if t._value.dtype.kind == "c" else t


def imag(input: TensorLike, name: str | None = None) -> Tensor:
    """The imaginary part of a complex tensor; zeros (no gradient) for a real one.

    >>> import retrograd as rg
    >>> rg.math.imag([1 + 2j, -3j]).numpy().tolist()
    [2.0, -3.0]
    """
    t = tensor_arg("Imag", input, NUMERIC, "input")
    if t._value.dtype.kind == "c":
        return execute(_Imag, (t,), None, name)
    return array_ops.zeros_like(t)


def angle(input: TensorLike, name: str | None = None) -> Tensor:
    """The argument ``atan2(imag, real)`` of a complex tensor, in (-pi, pi]; for a real
    tensor pi where it is negative and 0 elsewhere (with no gradient), as in TensorFlow.

    >>> import retrograd as rg
    >>> rg.math.angle([1j, -1 + 0j]).numpy().tolist(), rg.math.angle([2.0, -2.0]).numpy().tolist()
    ([1.5707963267948966, 3.141592653589793], [0.0, 3.1415927410125732])
    """
    t = tensor_arg("Angle", input, FLOAT_COMPLEX, "input")
    if t._value.dtype.kind == "c":
        return execute(_Angle, (t,), None, name)
    pi = Tensor(t._value.dtype.type(np.pi))
    zero = Tensor(t._value.dtype.type(0))
    return array_ops.where(t < 0, pi, zero, name=name)


def complex_abs(x: Any, name: str | None = None) -> Tensor:
    """The modulus ``|x|`` of a complex tensor, as a real tensor (what ``abs`` uses)."""
    t = tensor_arg("ComplexAbs", x, "c", "x")
    return execute(_ComplexAbs, (t,), None, name)


def _as_complex(t: Tensor) -> Tensor:
    return complex(t, array_ops.zeros_like(t))


@op_gradient("Complex")
def _complex_grad(op, grad):
    return broadcast.reduce_to_inputs(op, real(grad), imag(grad))


@op_gradient("Real")
def _real_grad(op, grad):
    return _as_complex(grad)


@op_gradient("Imag")
def _imag_grad(op, grad):
    return complex(array_ops.zeros_like(grad), grad)


@op_gradient("Angle")
def _angle_grad(op, grad):
    # angle(z) = Im(log z): the gradient i * grad through log's conj(1 / z).
    return complex(array_ops.zeros_like(grad), grad) / math_ops.conj(op.inputs[0])


@op_gradient("ComplexAbs")
def _complex_abs_grad(op, grad):
    # grad * z / |z|, and 0 at z = 0 (TensorFlow's choice at the kink).
    z, modulus = op.inputs[0], op.outputs[0]
    return safe_math_ops.divide_no_nan(_as_complex(grad) * z, _as_complex(modulus))
