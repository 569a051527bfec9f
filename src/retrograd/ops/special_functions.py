"""More special functions, computed by SciPy (the optional ``special`` extra, as
``special_ops``): the modified Bessel functions I0, I1 (and their exponentially scaled
forms), Bessel J0, J1, Y0, Y1, K0, K1 (and K0e, K1e), Dawson's integral, the exponential
integral, Fresnel's integrals, Spence's function, erfinv and ndtri (the inverse normal
CDF), the regularized incomplete gamma functions ``igamma``/``igammac``, Hurwitz's ``zeta``
the regularized incomplete beta function ``betainc``, and ``sobol_sample``.

Their gradients are TensorFlow's, built from ops of this family, so they differentiate
again; as in TensorFlow, ``zeta`` has no gradient in ``x`` and ``betainc`` none in ``a`` and
``b``. The derivatives of ``igamma`` in ``a`` (the op IgammaGradA, and IgammaGradAA for the
second, which TensorFlow lacks) come from the incomplete gamma function's power series.

>>> import retrograd as tf
>>> [round(v, 4) for v in tf.math.special.bessel_i0([0.0, 1.0]).numpy().tolist()]
[1.0, 1.2661]
>>> round(float(tf.math.erfinv(0.5)), 4), round(float(tf.math.igamma(2.0, 1.0)), 4)
(0.4769, 0.2642)
"""

from __future__ import annotations

import functools
import math

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, define, math_ops
from retrograd.ops.define import FLOAT, tensor_arg, tensor_pair
from retrograd.ops.special_ops import digamma, erfinv, lgamma, scipy_special

__all__ = [
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
    "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
    "betainc", "dawsn", "erfcinv", "erfinv", "expint", "fresnel_cos", "fresnel_sin",
    "igamma", "igammac", "ndtri", "sobol_sample", "spence", "zeta",
]  # fmt: skip

# The elementwise op factory of ops/define.py; the functions it makes belong here.
unary_op = functools.partial(define.unary_op, module=__name__)


def _call(op_type: str, function: str, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        out = getattr(scipy_special(op_type), function)(*args)
    if isinstance(out, tuple):  # fresnel: (S, C)
        out = out[0] if op_type == "FresnelSin" else out[1]
    return out.astype(args[-1].dtype, copy=False)


def _unary(api_name: str, op_type: str, function: str, doc: str):
    return unary_op(api_name, op_type, lambda x: _call(op_type, function, x), FLOAT, doc)


def _doc(what: str, example: str, result: str) -> str:
    return f"""{what}, elementwise (SciPy).

    >>> import retrograd as tf
    >>> [round(v, 4) for v in tf.math.special.{example}.numpy().tolist()]
    {result}
    """


# fmt: off
bessel_i0 = _unary("bessel_i0", "BesselI0", "i0", _doc(
    "The modified Bessel function of order 0", "bessel_i0([0.0, 2.0])", "[1.0, 2.2796]"))
bessel_i0e = _unary("bessel_i0e", "BesselI0e", "i0e", _doc(
    "exp(-|x|) * bessel_i0(x)", "bessel_i0e([0.0, 2.0])", "[1.0, 0.3085]"))
bessel_i1 = _unary("bessel_i1", "BesselI1", "i1", _doc(
    "The modified Bessel function of order 1", "bessel_i1([0.0, 2.0])", "[0.0, 1.5906]"))
bessel_i1e = _unary("bessel_i1e", "BesselI1e", "i1e", _doc(
    "exp(-|x|) * bessel_i1(x)", "bessel_i1e([0.0, 2.0])", "[0.0, 0.2153]"))
bessel_j0 = _unary("bessel_j0", "BesselJ0", "j0", _doc(
    "Bessel's function J0 (first kind)", "bessel_j0([0.0, 2.0])", "[1.0, 0.2239]"))
bessel_j1 = _unary("bessel_j1", "BesselJ1", "j1", _doc(
    "Bessel's function J1 (first kind)", "bessel_j1([0.0, 2.0])", "[0.0, 0.5767]"))
bessel_y0 = _unary("bessel_y0", "BesselY0", "y0", _doc(
    "Bessel's function Y0 (second kind)", "bessel_y0([1.0, 2.0])", "[0.0883, 0.5104]"))
bessel_y1 = _unary("bessel_y1", "BesselY1", "y1", _doc(
    "Bessel's function Y1 (second kind)", "bessel_y1([1.0, 2.0])", "[-0.7812, -0.107]"))
bessel_k0 = _unary("bessel_k0", "BesselK0", "k0", _doc(
    "The modified Bessel function K0", "bessel_k0([1.0, 2.0])", "[0.421, 0.1139]"))
bessel_k0e = _unary("bessel_k0e", "BesselK0e", "k0e", _doc(
    "exp(x) * bessel_k0(x)", "bessel_k0e([1.0, 2.0])", "[1.1445, 0.8416]"))
bessel_k1 = _unary("bessel_k1", "BesselK1", "k1", _doc(
    "The modified Bessel function K1", "bessel_k1([1.0, 2.0])", "[0.6019, 0.1399]"))
bessel_k1e = _unary("bessel_k1e", "BesselK1e", "k1e", _doc(
    "exp(x) * bessel_k1(x)", "bessel_k1e([1.0, 2.0])", "[1.6362, 1.0335]"))
dawsn = _unary("dawsn", "Dawsn", "dawsn", _doc(
    "Dawson's integral", "dawsn([0.0, 1.0])", "[0.0, 0.5381]"))
expint = _unary("expint", "Expint", "expi", _doc(
    "The exponential integral Ei(x)", "expint([1.0, 2.0])", "[1.8951, 4.9542]"))
fresnel_cos = _unary("fresnel_cos", "FresnelCos", "fresnel", _doc(
    "Fresnel's cosine integral", "fresnel_cos([0.0, 1.0])", "[0.0, 0.7799]"))
fresnel_sin = _unary("fresnel_sin", "FresnelSin", "fresnel", _doc(
    "Fresnel's sine integral", "fresnel_sin([0.0, 1.0])", "[0.0, 0.4383]"))
spence = _unary("spence", "Spence", "spence", _doc(
    "Spence's function", "spence([1.0, 2.0])", "[0.0, -0.8225]"))
# fmt: on

ndtri = unary_op("ndtri", "Ndtri", lambda x: _call("Ndtri", "ndtri", x), FLOAT,
    """The inverse of the standard normal distribution's CDF, elementwise (SciPy).

    >>> import retrograd as tf
    >>> [round(v, 4) for v in tf.math.ndtri([0.5, 0.975]).numpy().tolist()]
    [0.0, 1.96]
    """)  # fmt: skip


def erfcinv(x: TensorLike, name: str | None = None) -> Tensor:
    """The inverse of erfc: ``-ndtri(x / 2) / sqrt(2)``, as TensorFlow computes it.

    >>> import retrograd as tf
    >>> round(float(tf.math.erfcinv(0.5)), 4)
    0.4769
    """
    from retrograd.ops.scopes import op_scope

    x = tensor_arg("Erfcinv", x, FLOAT)
    with op_scope(name or "erfcinv"):
        return -ndtri(0.5 * x) * (1.0 / math.sqrt(2.0))


# -- two and three arguments ------------------------------------------------------------
def _igamma_a_series(a, x, order):
    """d/da (``order`` 1) or d2/da2 (2) of the regularized lower incomplete gamma P(a, x),
    from its power series P = sum_n exp((a + n) log x - x - lgamma(a + n + 1)): a term's
    derivative is the term times (log x - digamma(a + n + 1)), its second the term times
    that squared less trigamma(a + n + 1). Summed in float64 to the terms' vanishing."""
    special = scipy_special("IgammaGradA")
    a64, x64 = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
    out = np.zeros(a64.shape)
    good = (a64 > 0) & (x64 > 0) & np.isfinite(x64)
    av, xv = a64[good], x64[good]
    total = np.zeros(av.shape)
    if av.size:
        log_x = np.log(xv)
        top = float(np.max(xv))
        for start in range(0, int(top + 12.0 * math.sqrt(top) + 60.0), 256):
            n = np.arange(start, start + 256, dtype=np.float64)[:, None]
            shifted = av + n + 1.0
            term = np.exp((av + n) * log_x - xv - special.gammaln(shifted))
            slope = log_x - special.psi(shifted)
            if order == 1:
                total += np.sum(term * slope, axis=0)
            else:
                total += np.sum(term * (slope * slope - special.polygamma(1, shifted)), axis=0)
    out[good] = total
    out[(a64 <= 0) | (x64 < 0) | np.isnan(a64) | np.isnan(x64)] = np.nan
    return out.astype(a.dtype, copy=False)


_Igamma = define_op("Igamma", lambda a, x: _call("Igamma", "gammainc", a, x))
_Igammac = define_op("Igammac", lambda a, x: _call("Igammac", "gammaincc", a, x))
# The series is summed on the host, chunk by chunk (explicitly: host_kernel).
_IgammaGradA = define_op("IgammaGradA", host_kernel(lambda a, x: _igamma_a_series(a, x, 1)))
# d2P/da2: retrograd's own op (TensorFlow has no second derivative of igamma in a).
_IgammaGradAA = define_op("IgammaGradAA", host_kernel(lambda a, x: _igamma_a_series(a, x, 2)))
_Zeta = define_op("Zeta", lambda x, q: _call("Zeta", "zeta", x, q))
_Betainc = define_op("Betainc", lambda a, b, x: _call("Betainc", "betainc", a, b, x))


def _binary(op, a: TensorLike, x: TensorLike, name: str | None) -> Tensor:
    a, x = tensor_pair(op.type, a, x, FLOAT)
    broadcast_dims([a._value.shape, x._value.shape], op.type)
    return execute(op, (a, x), None, name)


def igamma(a: TensorLike, x: TensorLike, name: str | None = None) -> Tensor:
    """The regularized lower incomplete gamma function P(a, x), with broadcasting (SciPy).

    >>> import retrograd as tf
    >>> round(float(tf.math.igamma(1.0, 1.0)), 4)  # 1 - exp(-1)
    0.6321
    """
    return _binary(_Igamma, a, x, name)


def igammac(a: TensorLike, x: TensorLike, name: str | None = None) -> Tensor:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x) (SciPy).

    >>> import retrograd as tf
    >>> round(float(tf.math.igammac(1.0, 1.0)), 4)  # exp(-1)
    0.3679
    """
    return _binary(_Igammac, a, x, name)


def zeta(x: TensorLike, q: TensorLike, name: str | None = None) -> Tensor:
    """Hurwitz's zeta function, the sum over n >= 0 of (n + q) ** -x (SciPy).

    >>> import retrograd as tf
    >>> round(float(tf.math.zeta(2.0, 1.0)), 4)  # pi**2 / 6
    1.6449
    """
    return _binary(_Zeta, x, q, name)


def betainc(a: TensorLike, b: TensorLike, x: TensorLike, name: str | None = None) -> Tensor:
    """The regularized incomplete beta function I_x(a, b) (SciPy); ``a``, ``b`` and ``x`` of
    one shape, or scalars.

    >>> import retrograd as tf
    >>> round(float(tf.math.betainc(2.0, 3.0, 0.5)), 4)
    0.6875
    """
    given = [v for v in (a, b, x) if isinstance(v, Tensor)]
    dtype = given[0].dtype if given else None
    args = [
        tensor_arg("Betainc", convert_to_tensor(v, dtype), FLOAT, n)
        for v, n in ((a, "a"), (b, "b"), (x, "x"))
    ]
    shapes = {tuple(v._value.shape) for v in args if v._value.ndim}
    if len(shapes) > 1:
        raise InvalidArgumentError(
            f"Shapes of a, b and x are inconsistent: {[list(v._value.shape) for v in args]}"
        )
    return execute(_Betainc, tuple(args), None, name)


def _sobol_kernel(dim, num_results, skip, dtype):
    scipy_special("SobolSample")  # SciPy present (its qmc module draws the points)
    from scipy.stats import qmc

    engine = qmc.Sobol(int(dim), scramble=False)
    engine.fast_forward(1 + int(skip))  # TensorFlow leaves out the first point (all zeros)
    return engine.random(int(num_results)).astype(dtype.as_numpy_dtype)


_SobolSample = define_op("SobolSample", _sobol_kernel)
no_gradient("SobolSample")


def sobol_sample(
    dim: int,
    num_results: int,
    skip: int = 0,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
) -> Tensor:
    """``num_results`` points of the ``dim``-dimensional Sobol sequence (Joe and Kuo's
    direction numbers, unscrambled, as TensorFlow), after ``skip`` (SciPy).

    >>> import retrograd as tf
    >>> tf.math.sobol_sample(2, 3).numpy().tolist()
    [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]]
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype.name not in ("float32", "float64"):
        raise InvalidArgumentError(f"SobolSample: dtype must be float32 or float64, got {dtype}")
    values = [int(v) for v in (dim, num_results, skip)]
    if values[0] < 1:
        raise InvalidArgumentError("dim must be at least one")
    if values[1] < 1:
        raise InvalidArgumentError("num_results must be at least one")
    if values[2] < 0:
        raise InvalidArgumentError("skip must be non-negative")
    attrs = {"dim": values[0], "num_results": values[1], "skip": values[2], "dtype": dtype}
    return execute(_SobolSample, (), attrs, name)


# -- gradients (TensorFlow's) -----------------------------------------------------------
def _safe_reciprocal(x: Tensor) -> tuple[Tensor, Tensor]:
    zero = comparison_ops.equal(x, 0.0)
    return zero, 1.0 / array_ops.where(zero, array_ops.ones_like(x), x)


def _at_zero(x: Tensor, value: float, elsewhere: Tensor) -> Tensor:
    return array_ops.where(comparison_ops.equal(x, 0.0), array_ops.ones_like(x) * value, elsewhere)


@op_gradient("BesselI0")
def _i0_grad(op, grad):
    return grad * bessel_i1(op.inputs[0])


@op_gradient("BesselI0e")
def _i0e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return grad * (bessel_i1e(x) - math_ops.sign(x) * y)


@op_gradient("BesselI1")
def _i1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    _, inverse = _safe_reciprocal(x)
    return grad * _at_zero(x, 0.5, bessel_i0(x) - y * inverse)


@op_gradient("BesselI1e")
def _i1e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    _, inverse = _safe_reciprocal(x)
    return grad * _at_zero(x, 0.5, bessel_i0e(x) - y * (math_ops.sign(x) + inverse))


@op_gradient("BesselJ0")
def _j0_grad(op, grad):
    return grad * -bessel_j1(op.inputs[0])


@op_gradient("BesselJ1")
def _j1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    _, inverse = _safe_reciprocal(x)
    return grad * _at_zero(x, 0.5, bessel_j0(x) - y * inverse)


@op_gradient("BesselY0")
def _y0_grad(op, grad):
    return grad * -bessel_y1(op.inputs[0])


@op_gradient("BesselY1")
def _y1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return grad * (bessel_y0(x) - y / x)


@op_gradient("BesselK0")
def _k0_grad(op, grad):
    return grad * -bessel_k1(op.inputs[0])


@op_gradient("BesselK0e")
def _k0e_grad(op, grad):
    return grad * (op.outputs[0] - bessel_k1e(op.inputs[0]))


@op_gradient("BesselK1")
def _k1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return grad * (-bessel_k0(x) - y / x)


@op_gradient("BesselK1e")
def _k1e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return grad * (-bessel_k0e(x) - y * (1.0 / x - 1.0))


@op_gradient("Dawsn")
def _dawsn_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return grad * (1.0 - 2.0 * x * y)


@op_gradient("Expint")
def _expint_grad(op, grad):
    x = op.inputs[0]
    return grad * math_ops.exp(x) / x


@op_gradient("FresnelCos")
def _fresnel_cos_grad(op, grad):
    x = op.inputs[0]
    return grad * math_ops.cos(0.5 * math.pi * x * x)


@op_gradient("FresnelSin")
def _fresnel_sin_grad(op, grad):
    x = op.inputs[0]
    return grad * math_ops.sin(0.5 * math.pi * x * x)


@op_gradient("Spence")
def _spence_grad(op, grad):
    x = op.inputs[0]
    one = comparison_ops.equal(x, 1.0)
    safe = array_ops.where(one, array_ops.zeros_like(x), x)
    partial = math_ops.log(array_ops.where(one, array_ops.ones_like(x), x)) / (1.0 - safe)
    return grad * array_ops.where(one, -array_ops.ones_like(x), partial)


@op_gradient("Ndtri")
def _ndtri_grad(op, grad):
    y = op.outputs[0]
    return grad * math.sqrt(2.0 * math.pi) * math_ops.exp(0.5 * math_ops.square(y))


def _igamma_partials(op, with_a=True):
    a, x = op.inputs
    skip = op.skip_input_indices  # (a not wanted: IgammaGradA not run)
    wanted = with_a and not (skip and 0 in skip)
    partial_a = execute(_IgammaGradA, (a, x), None, None) if wanted else None
    partial_x = math_ops.exp(-x + (a - 1.0) * math_ops.log(x) - lgamma(a))
    return partial_a, partial_x


@op_gradient("IgammaGradA")
def _igamma_grad_a_grad(op, grad):
    # (TensorFlow stops at first order in a.) In x: d/da of dP/dx, in closed form.
    a, x = op.inputs
    skip = op.skip_input_indices
    second_a = None if skip and 0 in skip else grad * execute(_IgammaGradAA, (a, x), None, None)
    _, partial_x = _igamma_partials(op, with_a=False)
    second_x = grad * partial_x * (math_ops.log(x) - digamma(a))
    return broadcast.reduce_to_inputs(op, second_a, second_x)


@op_gradient("IgammaGradAA")
def _igamma_grad_aa_grad(op, grad):
    raise LookupError("gradient registry has no entry for: IgammaGradAA (third derivatives "
                      "of igamma in a are not computed)")  # fmt: skip


@op_gradient("Igamma")
def _igamma_grad(op, grad):
    partial_a, partial_x = _igamma_partials(op)
    ga = None if partial_a is None else grad * partial_a
    return broadcast.reduce_to_inputs(op, ga, grad * partial_x)


@op_gradient("Igammac")
def _igammac_grad(op, grad):
    partial_a, partial_x = _igamma_partials(op)
    ga = None if partial_a is None else -grad * partial_a
    return broadcast.reduce_to_inputs(op, ga, -grad * partial_x)


@op_gradient("Zeta")
def _zeta_grad(op, grad):
    x, q = op.inputs  # no derivative in x, as in TensorFlow
    return broadcast.reduce_to_inputs(op, None, grad * -x * zeta(x + 1.0, q))


@op_gradient("Betainc")
def _betainc_grad(op, grad):
    from retrograd.ops.math_extra_ops import xlog1py
    from retrograd.ops.safe_math_ops import xlogy

    a, b, x = op.inputs  # no derivatives in a and b, as in TensorFlow
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    partial_x = math_ops.exp(xlog1py(b - 1.0, -x) + xlogy(a - 1.0, x) - log_beta)
    gx = grad * partial_x
    if tuple(x.shape) != tuple(gx.shape):
        gx = math_ops.reduce_sum(gx)  # a scalar x broadcast against tensor a or b
    return None, None, gx
