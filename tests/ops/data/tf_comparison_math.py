"""Elementwise math, special functions, activations, clipping and complex numbers for the
comparison with TensorFlow (tests/ops/test_against_tensorflow_math.py; goldens made by
make_tf_comparison_goldens.py): each row written once against a library namespace ``lib``.
Gradients are of the real loss ``sum(Re(y) Re(w) + Im(y) Im(w))`` (see tf_comparison.py).
Plain code: no TensorFlow or retrograd import here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Pair:
    """A function of ``lib`` on inputs of ``shapes``.

    ``order``: 2 compares values, gradients and second-order gradients; 1 values and
    gradients; 0 values only (where TensorFlow's gradient is wrong, see the comments).
    """

    name: str
    fn: Callable[..., Any]
    shapes: tuple = ((2, 3),)
    domain: tuple[float, float] = (-2.0, 2.0)
    complex_inputs: tuple[int, ...] = ()
    order: int = 2
    inputs: tuple | None = None  # fixed inputs instead of random ones
    rtol: float = 1e-7  # in float64

    def arrays(self) -> list[np.ndarray]:
        if self.inputs is not None:
            return [np.asarray(a) for a in self.inputs]
        rng = np.random.default_rng(sum(map(ord, self.name)))
        out = []
        for i, shape in enumerate(self.shapes):
            a = rng.uniform(*self.domain, size=shape)
            if i in self.complex_inputs:
                a = a + 1j * rng.uniform(*self.domain, size=shape)
            out.append(a)
        return out


def unary(name, fn, **kw):
    return Pair(name, fn, **kw)


def complex_unary(name, fn, **kw):
    return Pair(f"{name}[complex]", fn, domain=(0.2, 0.9), complex_inputs=(0,), **kw)


def complex_binary(name, fn, **kw):
    shapes = ((2, 3), (3,))
    return Pair(f"{name}[complex]", fn, shapes, (0.2, 0.9), (0, 1), **kw)


BINARY = ((2, 3), (3,))
POSITIVE = (0.3, 2.0)
ORDERS = np.array([[0.0], [1.0], [2.0]])
KINKS = (np.array([0.0, 6.0, 3.0, -1.0, -0.5, 0.5]),)


def pairs(lib: Any) -> list[Pair]:
    """The rows, with ``lib``'s functions."""
    return [
        # --- real elementwise
        unary("floor", lib.math.floor),
        unary("ceil", lib.math.ceil),
        unary("round", lib.math.round, inputs=(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.4]),)),
        unary("erf", lib.math.erf),
        unary("erfc", lib.math.erfc),
        unary(
            "lgamma",
            lib.math.lgamma,
            inputs=(np.array([-2.5, -1.3, -0.4, 0.3, 1.7, 3.2]),),
        ),
        unary(
            "digamma",
            lib.math.digamma,
            inputs=(np.array([-2.5, -1.3, -0.4, 0.3, 1.7, 3.2]),),
        ),
        Pair(
            "polygamma",
            lambda x: lib.math.polygamma(ORDERS, x),
            ((4,),),
            (0.3, 3.0),
        ),
        unary("asin", lib.asin, domain=(-0.9, 0.9)),
        unary("acos", lib.acos, domain=(-0.9, 0.9)),
        unary("atan", lib.atan),
        Pair("atan2", lib.atan2, BINARY, (0.3, 2.0)),
        Pair(
            "atan2[quadrants]",
            lib.atan2,
            inputs=(np.array([1.0, 1.0, -1.0, -1.0]), np.array([1.0, -1.0, -1.0, 1.0])),
        ),
        unary("sinh", lib.sinh),
        unary("cosh", lib.cosh),
        unary("asinh", lib.asinh),
        unary("acosh", lib.acosh, domain=(1.2, 3.0)),
        unary("atanh", lib.atanh, domain=(-0.9, 0.9)),
        Pair("xlogy", lib.math.xlogy, BINARY, POSITIVE),
        Pair(
            "xlogy[zeros]",
            lib.math.xlogy,
            inputs=(np.array([0.0, 0.0, 2.0]), np.array([0.0, 1.0, 3.0])),
        ),
        Pair("xdivy", lib.math.xdivy, BINARY, POSITIVE),
        Pair(
            "xdivy[zeros]",
            lib.math.xdivy,
            inputs=(np.array([0.0, 0.0, 2.0]), np.array([0.0, 1.0, 3.0])),
        ),
        Pair("divide_no_nan", lib.math.divide_no_nan, BINARY, POSITIVE),
        Pair(
            "divide_no_nan[zeros]",
            lib.math.divide_no_nan,
            inputs=(np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.0, 4.0])),
        ),
        Pair("squared_difference", lib.math.squared_difference, BINARY),
        # --- activations, on random inputs and at their kinks
        # (TensorFlow has no second derivative of Softsign: SoftsignGrad has no gradient.)
        unary("softsign", lib.nn.softsign, order=1),
        unary("softsign[kinks]", lib.nn.softsign, order=1, inputs=KINKS),
        *[
            Pair(f"{name}{suffix}", fn, **extra)
            for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
            for name, fn in [
                ("elu", lib.nn.elu),
                ("selu", lib.nn.selu),
                ("relu6", lib.nn.relu6),
                ("leaky_relu", lib.nn.leaky_relu),
                (
                    "leaky_relu[1.5]",
                    lambda x: lib.nn.leaky_relu(x, 1.5),
                ),
                ("silu", lib.nn.silu),
                # (a beta exact in float32: TensorFlow rounds a Python beta to float32 first)
                ("swish[0.75]", lambda x: lib.nn.swish(x, 0.75)),
                ("log_sigmoid", lib.math.log_sigmoid),
            ]
        ],
        Pair("silu[beta]", lib.nn.silu, ((2, 3), ())),
        # TensorFlow rounds gelu's constants (1/sqrt(2), 0.044715) to float32 even for float64
        # features; retrograd keeps them in the features' dtype. Agreement to ~1e-7 relative.
        *[
            Pair(f"gelu{suffix}", lib.nn.gelu, rtol=1e-6, **extra)
            for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
        ],
        *[
            Pair(
                f"gelu[approximate]{suffix}",
                lambda x: lib.nn.gelu(x, True),
                rtol=1e-6,
                **extra,
            )
            for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
        ],
        # --- clipping
        Pair("clip_by_norm", lib.clip_by_norm, ((2, 3), ()), (0.5, 1.0)),
        Pair(
            "clip_by_norm[axes]",
            lambda t: lib.clip_by_norm(t, 1.0, axes=[1]),
            ((3, 2),),
            (-1.0, 1.0),
        ),
        Pair(
            "clip_by_norm[zeros]",
            lambda t: lib.clip_by_norm(t, 1.0),
            inputs=(np.zeros(3),),
        ),
        Pair(
            "global_norm",
            lambda a, b: lib.linalg.global_norm([a, b]),
            ((2, 3), (3,)),
        ),
        Pair(
            "clip_by_global_norm",
            lambda a, b, c: lib.clip_by_global_norm([a, b], c),
            ((2, 3), (3,), ()),
            (0.5, 1.0),
        ),
        # --- real inputs through the complex API
        Pair("complex", lib.complex, BINARY),
        unary("real[real input]", lib.math.real),
        unary("imag[real input]", lib.math.imag),
        unary("angle[real input]", lib.math.angle),
        unary(
            "cast[to complex]",
            lambda x: lib.cast(x, lib.complex128) * (1 + 2j),
        ),
        # --- complex elementwise: the ops TensorFlow defines on complex dtypes
        *[
            complex_unary(name, fn)
            for name, fn in [
                ("real", lib.math.real),
                ("imag", lib.math.imag),
                ("angle", lib.math.angle),
                ("abs", lib.abs),
                ("sign", lib.sign),
                ("conj", lib.math.conj),
                ("cast[to real]", lambda z: lib.cast(z, lib.float64)),
                ("negative", lib.negative),
                ("square", lib.square),
                ("sqrt", lib.sqrt),
                ("rsqrt", lib.math.rsqrt),
                ("reciprocal", lib.math.reciprocal),
                ("exp", lib.exp),
                ("log", lib.math.log),
                ("log1p", lib.math.log1p),
                ("expm1", lib.math.expm1),
                ("sin", lib.sin),
                ("cos", lib.cos),
                ("tan", lib.tan),
                ("tanh", lib.tanh),
                ("sigmoid", lib.sigmoid),
                ("asin", lib.asin),
                ("acos", lib.acos),
                ("atan", lib.atan),
                ("sinh", lib.sinh),
                ("cosh", lib.cosh),
                ("asinh", lib.asinh),
                ("acosh", lib.acosh),
                ("atanh", lib.atanh),
                ("reduce_sum", lambda z: lib.reduce_sum(z, 1)),
                ("reduce_mean", lib.reduce_mean),
                ("reduce_prod", lambda z: lib.reduce_prod(z, 0)),
            ]
        ],
        complex_binary("add", lib.add),
        complex_binary("subtract", lib.subtract),
        complex_binary("multiply", lib.multiply),
        complex_binary("divide", lib.divide),
        complex_binary("pow", lib.pow),
        complex_binary("divide_no_nan", lib.math.divide_no_nan),
        # TensorFlow 2.21's rules for these leave out a conjugate, so its complex gradients
        # disagree with finite differences (retrograd's are checked against them in the op
        # tables); only the values are compared.
        complex_binary("xlogy", lib.math.xlogy, order=0),
        complex_binary("xdivy", lib.math.xdivy, order=0),
        complex_binary("squared_difference", lib.math.squared_difference, order=0),
        complex_unary("silu", lib.nn.silu, order=0),
    ]


def special_values(lib: Any) -> dict[str, tuple[Callable, Any]]:
    """Values at special points (NaN, infinities, poles) and integer inputs: name ->
    (function, input values)."""
    return {
        "is_nan": (lib.math.is_nan, [1.0, np.nan, np.inf, -np.inf]),
        "is_inf": (lib.math.is_inf, [1.0, np.nan, np.inf, -np.inf]),
        "is_finite": (lib.math.is_finite, [1.0, np.nan, np.inf, -np.inf]),
        "lgamma[poles]": (lib.math.lgamma, [0.0, -1.0, -2.0, np.inf, -np.inf]),
        "digamma[poles]": (lib.math.digamma, [0.0, -0.0, -1.0, -2.0]),
        "round[ints]": (lib.math.round, np.array([-3, 2], np.int32)),
        "relu6[ints]": (lib.nn.relu6, np.array([-3, 2, 9], np.int32)),
        "leaky_relu[ints]": (lib.nn.leaky_relu, np.array([-3, 2], np.int32)),
        "divide_no_nan[ints]": (
            lambda x: lib.math.divide_no_nan(x, x - 2),
            np.array([1, 2, 3], np.int32),
        ),
        "angle[zero]": (lib.math.angle, np.array([0j, -1 + 0j, 1j, -1j])),
        "cast[complex to int]": (
            lambda z: lib.cast(z, lib.int32),
            np.array([1.7 + 2j, -0.5j]),
        ),
        "polygamma[poles]": (
            lambda x: lib.math.polygamma(lib.constant([0.0, 1.0, 2.0, 3.0, 1.5], x.dtype), x),
            np.array([0.0, -1.0, -2.0, 0.0, 2.0]),
        ),
    }


def no_gradient(lib: Any, op: str) -> Any:
    """Whether ``lib``'s gradient of ``op`` is None (an array, for storing)."""
    x = lib.constant([0.3, 1.7])
    with lib.GradientTape() as tape:
        tape.watch(x)
        y = getattr(lib.math, op)(x)
    return np.array(tape.gradient(y, x) is None)


ROUNDING = ["floor", "ceil", "round"]
