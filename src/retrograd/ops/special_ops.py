"""Special functions: erf, erfc, erfinv, lgamma, digamma, polygamma, computed by SciPy.

SciPy is an optional dependency (``pip install 'retrograd[special]'``), imported when one of
these ops first runs: importing retrograd never needs it. Without it the ops raise
``retrograd.errors.MissingDependencyError`` (an ImportError) naming the extra to install.
Each gradient is another op of this family (erf' is built from exp), so every one of them
differentiates again: digamma's derivative is polygamma(1, x), polygamma(n, x)'s is
polygamma(n + 1, x).

At the poles (0, -1, -2, ...) the values follow TensorFlow: lgamma is inf, digamma and
even-order polygamma (whose two one-sided limits differ in sign) are nan, odd orders inf.

>>> import retrograd as rg
>>> print(rg.math.erf([0.0, 0.5]).numpy(), rg.math.lgamma([4.0]).numpy())
[0.        0.5204999] [1.7917595]
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import MissingDependencyError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import broadcast, define, math_ops
from retrograd.ops.define import FLOAT, tensor_pair

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)

_TWO_OVER_SQRT_PI = 1.1283791670955126


def scipy_special(op_type: str) -> Any:
    """``scipy.special``, or MissingDependencyError naming ``op_type`` and the extra."""
    try:
        return importlib.import_module("scipy.special")
    except ImportError:
        raise MissingDependencyError(
            f"{op_type} needs SciPy, an optional dependency of retrograd; install it with "
            f"pip install 'retrograd[special]'"
        ) from None


def _at_poles(x):
    """True where x is 0 or a negative integer."""
    return (x <= 0) & (np.floor(x) == x)


def _scipy_call(op_type: str, function: str, *args: Any) -> Any:
    """``scipy.special.<function>(*args)`` in the dtype of the last argument, silently (SciPy's
    Python-level functions warn through NumPy where retrograd's kernels never do)."""
    with np.errstate(all="ignore"):
        out = getattr(scipy_special(op_type), function)(*args)
    return out.astype(args[-1].dtype, copy=False)


def _erf_kernel(x):
    return _scipy_call("Erf", "erf", x)


def _erfc_kernel(x):
    return _scipy_call("Erfc", "erfc", x)


def _erfinv_kernel(x):
    return _scipy_call("Erfinv", "erfinv", x)


def _lgamma_kernel(x):
    out = _scipy_call("Lgamma", "gammaln", x)
    return np.where(x == -np.inf, np.full_like(out, np.inf), out)  # SciPy gives -inf there


def _digamma_kernel(x):
    out = _scipy_call("Digamma", "psi", x)
    return np.where(_at_poles(x), np.full_like(out, np.nan), out)  # SciPy: -inf at +0


def _polygamma_kernel(a, x):
    # SciPy's polygamma is Python over its ufuncs (psi, zeta), which every array library
    # with SciPy's special functions dispatches: n! * (-1)^(n+1) * zeta(n + 1, x), psi for 0.
    special = scipy_special("Polygamma")
    with np.errstate(all="ignore"):
        a, x = np.broadcast_arrays(a, x)
        sign = np.where(np.fmod(a, 2) == 0, -1.0, 1.0)
        scaled = sign * special.gamma(a + 1.0) * special.zeta(a + 1.0, x)
        out = np.where(a == 0, special.psi(x), scaled)
        out = np.where((a < 0) | (np.floor(a) != a), np.nan, out).astype(x.dtype, copy=False)

    even = np.floor(a / 2) * 2 == a
    return np.where(_at_poles(x) & even, np.full_like(out, np.nan), out)


erf = unary_op(
    "erf",
    "Erf",
    _erf_kernel,
    FLOAT,
    """The error function, elementwise (SciPy).

    >>> import retrograd as rg
    >>> rg.math.erf(0.0).numpy().tolist(), round(float(rg.math.erf(1.0)), 4)
    (0.0, 0.8427)
    """,
)
erfc = unary_op(
    "erfc",
    "Erfc",
    _erfc_kernel,
    FLOAT,
    """1 - erf(x), accurate for large x (SciPy).

    >>> import retrograd as rg
    >>> rg.math.erfc(0.0).numpy().tolist(), float(rg.math.erfc(10.0)) > 0
    (1.0, True)
    """,
)
erfinv = unary_op(
    "erfinv",
    "Erfinv",
    _erfinv_kernel,
    FLOAT,
    """The inverse of erf on (-1, 1), elementwise (SciPy); -inf and inf at -1 and 1.

    >>> import retrograd as rg
    >>> from retrograd.ops.special_ops import erfinv
    >>> erfinv(0.0).numpy().tolist(), round(float(erfinv(0.8427008)), 4)
    (0.0, 1.0)
    """,
)
lgamma = unary_op(
    "lgamma",
    "Lgamma",
    _lgamma_kernel,
    FLOAT,
    """log |Gamma(x)| elementwise (SciPy).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.math.lgamma([1.0, 5.0]).numpy().tolist()]
    [0.0, 3.1781]
    """,
)
digamma = unary_op(
    "digamma",
    "Digamma",
    _digamma_kernel,
    FLOAT,
    """The derivative of lgamma (SciPy).

    >>> import retrograd as rg
    >>> round(float(rg.math.digamma(1.0)), 4)
    -0.5772
    """,
)
_Polygamma = define_op("Polygamma", _polygamma_kernel)


def polygamma(a: TensorLike, x: TensorLike, name: str | None = None) -> Tensor:
    """The ``a``-th derivative of digamma at ``x`` (``a`` a whole number in x's float dtype;
    nan otherwise), with broadcasting. Needs SciPy.

    >>> import retrograd as rg
    >>> print(rg.math.polygamma(1.0, [1.0, 2.0]).numpy())  # pi**2/6, pi**2/6 - 1
    [1.644934   0.64493406]
    """
    a, x = tensor_pair("Polygamma", a, x, FLOAT)
    broadcast_dims([a._value.shape, x._value.shape], "Polygamma")
    return execute(_Polygamma, (a, x), None, name)


@op_gradient("Erf")
def _erf_grad(op, grad):
    x = op.inputs[0]
    return grad * (_TWO_OVER_SQRT_PI * math_ops.exp(-(x * x)))


@op_gradient("Erfc")
def _erfc_grad(op, grad):
    x = op.inputs[0]
    return grad * (-_TWO_OVER_SQRT_PI * math_ops.exp(-(x * x)))


@op_gradient("Erfinv")
def _erfinv_grad(op, grad):
    y = op.outputs[0]  # erfinv' = sqrt(pi) / 2 * exp(erfinv(x)**2)
    return grad * (math_ops.exp(y * y) / _TWO_OVER_SQRT_PI)


@op_gradient("Lgamma")
def _lgamma_grad(op, grad):
    return grad * digamma(op.inputs[0])


@op_gradient("Digamma")
def _digamma_grad(op, grad):
    x = op.inputs[0]
    return grad * polygamma(1.0, x)


@op_gradient("Polygamma")
def _polygamma_grad(op, grad):
    # Not differentiable in the order a (an integer), as in TensorFlow.
    a, x = op.inputs
    return broadcast.reduce_to_inputs(op, None, grad * polygamma(a + 1, x))
