"""Elementwise math, special functions, activations, clipping and complex numbers compared
with TensorFlow itself: the same inputs give the same values, gradients and second-order
gradients. Skipped unless TensorFlow is importable (CI does not install it); run with

    PYTHONPATH=src:. <python with tensorflow> -m pytest tests/ops/test_against_tensorflow_math.py

Gradients are of the real loss ``sum(Re(y) * Re(w) + Im(y) * Im(w))`` for random ``w``, and
at second order of ``sum(Re(g) * Re(v) + Im(g) * Im(v))`` for the first gradient ``g``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow")

import retrograd as rg  # noqa: E402


@dataclass
class Pair:
    """The same function in retrograd and TensorFlow, on inputs of ``shapes``.

    ``order``: 2 compares values, gradients and second-order gradients; 1 values and
    gradients; 0 values only (where TensorFlow's gradient is wrong, see the comments).
    """

    name: str
    rg_fn: Callable[..., Any]
    tf_fn: Callable[..., Any]
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


def unary(name, rg_fn, tf_fn, **kw):
    return Pair(name, rg_fn, tf_fn, **kw)


def complex_unary(name, rg_fn, tf_fn, **kw):
    return Pair(f"{name}[complex]", rg_fn, tf_fn, domain=(0.2, 0.9), complex_inputs=(0,), **kw)


def complex_binary(name, rg_fn, tf_fn, **kw):
    shapes = ((2, 3), (3,))
    return Pair(f"{name}[complex]", rg_fn, tf_fn, shapes, (0.2, 0.9), (0, 1), **kw)


BINARY = ((2, 3), (3,))
POSITIVE = (0.3, 2.0)
ORDERS = np.array([[0.0], [1.0], [2.0]])
KINKS = (np.array([0.0, 6.0, 3.0, -1.0, -0.5, 0.5]),)

PAIRS = [
    # --- real elementwise
    unary("floor", rg.math.floor, tf.math.floor),
    unary("ceil", rg.math.ceil, tf.math.ceil),
    unary(
        "round", rg.math.round, tf.math.round, inputs=(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.4]),)
    ),
    unary("erf", rg.math.erf, tf.math.erf),
    unary("erfc", rg.math.erfc, tf.math.erfc),
    unary(
        "lgamma",
        rg.math.lgamma,
        tf.math.lgamma,
        inputs=(np.array([-2.5, -1.3, -0.4, 0.3, 1.7, 3.2]),),
    ),
    unary(
        "digamma",
        rg.math.digamma,
        tf.math.digamma,
        inputs=(np.array([-2.5, -1.3, -0.4, 0.3, 1.7, 3.2]),),
    ),
    Pair(
        "polygamma",
        lambda x: rg.math.polygamma(ORDERS, x),
        lambda x: tf.math.polygamma(ORDERS, x),
        ((4,),),
        (0.3, 3.0),
    ),
    unary("asin", rg.asin, tf.asin, domain=(-0.9, 0.9)),
    unary("acos", rg.acos, tf.acos, domain=(-0.9, 0.9)),
    unary("atan", rg.atan, tf.atan),
    Pair("atan2", rg.atan2, tf.atan2, BINARY, (0.3, 2.0)),
    Pair(
        "atan2[quadrants]",
        rg.atan2,
        tf.atan2,
        inputs=(np.array([1.0, 1.0, -1.0, -1.0]), np.array([1.0, -1.0, -1.0, 1.0])),
    ),
    unary("sinh", rg.sinh, tf.sinh),
    unary("cosh", rg.cosh, tf.cosh),
    unary("asinh", rg.asinh, tf.asinh),
    unary("acosh", rg.acosh, tf.acosh, domain=(1.2, 3.0)),
    unary("atanh", rg.atanh, tf.atanh, domain=(-0.9, 0.9)),
    Pair("xlogy", rg.math.xlogy, tf.math.xlogy, BINARY, POSITIVE),
    Pair(
        "xlogy[zeros]",
        rg.math.xlogy,
        tf.math.xlogy,
        inputs=(np.array([0.0, 0.0, 2.0]), np.array([0.0, 1.0, 3.0])),
    ),
    Pair("xdivy", rg.math.xdivy, tf.math.xdivy, BINARY, POSITIVE),
    Pair(
        "xdivy[zeros]",
        rg.math.xdivy,
        tf.math.xdivy,
        inputs=(np.array([0.0, 0.0, 2.0]), np.array([0.0, 1.0, 3.0])),
    ),
    Pair("divide_no_nan", rg.math.divide_no_nan, tf.math.divide_no_nan, BINARY, POSITIVE),
    Pair(
        "divide_no_nan[zeros]",
        rg.math.divide_no_nan,
        tf.math.divide_no_nan,
        inputs=(np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.0, 4.0])),
    ),
    Pair("squared_difference", rg.math.squared_difference, tf.math.squared_difference, BINARY),
    # --- activations, on random inputs and at their kinks
    # (TensorFlow has no second derivative of Softsign: SoftsignGrad has no gradient.)
    unary("softsign", rg.nn.softsign, tf.nn.softsign, order=1),
    unary("softsign[kinks]", rg.nn.softsign, tf.nn.softsign, order=1, inputs=KINKS),
    *[
        Pair(f"{name}{suffix}", rg_fn, tf_fn, **extra)
        for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
        for name, rg_fn, tf_fn in [
            ("elu", rg.nn.elu, tf.nn.elu),
            ("selu", rg.nn.selu, tf.nn.selu),
            ("relu6", rg.nn.relu6, tf.nn.relu6),
            ("leaky_relu", rg.nn.leaky_relu, tf.nn.leaky_relu),
            (
                "leaky_relu[1.5]",
                lambda x: rg.nn.leaky_relu(x, 1.5),
                lambda x: tf.nn.leaky_relu(x, 1.5),
            ),
            ("silu", rg.nn.silu, tf.nn.silu),
            # (a beta exact in float32: TensorFlow rounds a Python beta to float32 first)
            ("swish[0.75]", lambda x: rg.nn.swish(x, 0.75), lambda x: tf.nn.swish(x, 0.75)),
            ("log_sigmoid", rg.math.log_sigmoid, tf.math.log_sigmoid),
        ]
    ],
    Pair("silu[beta]", rg.nn.silu, tf.nn.silu, ((2, 3), ())),
    # TensorFlow rounds gelu's constants (1/sqrt(2), 0.044715) to float32 even for float64
    # features; retrograd keeps them in the features' dtype. Agreement to ~1e-7 relative.
    *[
        Pair(f"gelu{suffix}", rg.nn.gelu, tf.nn.gelu, rtol=1e-6, **extra)
        for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
    ],
    *[
        Pair(
            f"gelu[approximate]{suffix}",
            lambda x: rg.nn.gelu(x, True),
            lambda x: tf.nn.gelu(x, True),
            rtol=1e-6,
            **extra,
        )
        for suffix, extra in (("", {}), ("[kinks]", {"inputs": KINKS}))
    ],
    # --- clipping
    Pair("clip_by_norm", rg.clip_by_norm, tf.clip_by_norm, ((2, 3), ()), (0.5, 1.0)),
    Pair(
        "clip_by_norm[axes]",
        lambda t: rg.clip_by_norm(t, 1.0, axes=[1]),
        lambda t: tf.clip_by_norm(t, 1.0, axes=[1]),
        ((3, 2),),
        (-1.0, 1.0),
    ),
    Pair(
        "clip_by_norm[zeros]",
        lambda t: rg.clip_by_norm(t, 1.0),
        lambda t: tf.clip_by_norm(t, 1.0),
        inputs=(np.zeros(3),),
    ),
    Pair(
        "global_norm",
        lambda a, b: rg.linalg.global_norm([a, b]),
        lambda a, b: tf.linalg.global_norm([a, b]),
        ((2, 3), (3,)),
    ),
    Pair(
        "clip_by_global_norm",
        lambda a, b, c: rg.clip_by_global_norm([a, b], c),
        lambda a, b, c: tf.clip_by_global_norm([a, b], c),
        ((2, 3), (3,), ()),
        (0.5, 1.0),
    ),
    # --- real inputs through the complex API
    Pair("complex", rg.complex, tf.complex, BINARY),
    unary("real[real input]", rg.math.real, tf.math.real),
    unary("imag[real input]", rg.math.imag, tf.math.imag),
    unary("angle[real input]", rg.math.angle, tf.math.angle),
    unary(
        "cast[to complex]",
        lambda x: rg.cast(x, rg.complex128) * (1 + 2j),
        lambda x: tf.cast(x, tf.complex128) * (1 + 2j),
    ),
    # --- complex elementwise: the ops TensorFlow defines on complex dtypes
    *[
        complex_unary(name, rg_fn, tf_fn)
        for name, rg_fn, tf_fn in [
            ("real", rg.math.real, tf.math.real),
            ("imag", rg.math.imag, tf.math.imag),
            ("angle", rg.math.angle, tf.math.angle),
            ("abs", rg.abs, tf.abs),
            ("sign", rg.sign, tf.sign),
            ("conj", rg.math.conj, tf.math.conj),
            ("cast[to real]", lambda z: rg.cast(z, rg.float64), lambda z: tf.cast(z, tf.float64)),
            ("negative", rg.negative, tf.negative),
            ("square", rg.square, tf.square),
            ("sqrt", rg.sqrt, tf.sqrt),
            ("rsqrt", rg.math.rsqrt, tf.math.rsqrt),
            ("reciprocal", rg.math.reciprocal, tf.math.reciprocal),
            ("exp", rg.exp, tf.exp),
            ("log", rg.math.log, tf.math.log),
            ("log1p", rg.math.log1p, tf.math.log1p),
            ("expm1", rg.math.expm1, tf.math.expm1),
            ("sin", rg.sin, tf.sin),
            ("cos", rg.cos, tf.cos),
            ("tan", rg.tan, tf.tan),
            ("tanh", rg.tanh, tf.tanh),
            ("sigmoid", rg.sigmoid, tf.sigmoid),
            ("asin", rg.asin, tf.asin),
            ("acos", rg.acos, tf.acos),
            ("atan", rg.atan, tf.atan),
            ("sinh", rg.sinh, tf.sinh),
            ("cosh", rg.cosh, tf.cosh),
            ("asinh", rg.asinh, tf.asinh),
            ("acosh", rg.acosh, tf.acosh),
            ("atanh", rg.atanh, tf.atanh),
            ("reduce_sum", lambda z: rg.reduce_sum(z, 1), lambda z: tf.reduce_sum(z, 1)),
            ("reduce_mean", rg.reduce_mean, tf.reduce_mean),
            ("reduce_prod", lambda z: rg.reduce_prod(z, 0), lambda z: tf.reduce_prod(z, 0)),
        ]
    ],
    complex_binary("add", rg.add, tf.add),
    complex_binary("subtract", rg.subtract, tf.subtract),
    complex_binary("multiply", rg.multiply, tf.multiply),
    complex_binary("divide", rg.divide, tf.divide),
    complex_binary("pow", rg.pow, tf.pow),
    complex_binary("divide_no_nan", rg.math.divide_no_nan, tf.math.divide_no_nan),
    # TensorFlow 2.21's rules for these leave out a conjugate, so its complex gradients
    # disagree with finite differences (retrograd's are checked against them in the op
    # tables); only the values are compared.
    complex_binary("xlogy", rg.math.xlogy, tf.math.xlogy, order=0),
    complex_binary("xdivy", rg.math.xdivy, tf.math.xdivy, order=0),
    complex_binary(
        "squared_difference", rg.math.squared_difference, tf.math.squared_difference, order=0
    ),
    complex_unary("silu", rg.nn.silu, tf.nn.silu, order=0),
]


def _loss(y_flat: list, weights: list, real: Callable, imag: Callable, reduce_sum: Callable):
    total = 0.0
    for y, w in zip(y_flat, weights):
        if y is None or w is None:
            continue
        if np.iscomplexobj(w):
            total = total + reduce_sum(real(y) * w.real) + reduce_sum(imag(y) * w.imag)
        else:
            total = total + reduce_sum(y * w)
    return total


def _weights(rng: np.random.Generator, values: list) -> list:
    out = []
    for v in values:
        if v is None or v.dtype.kind not in "fc":
            out.append(None)
            continue
        w = rng.standard_normal(v.shape)
        out.append(w + 1j * rng.standard_normal(v.shape) if v.dtype.kind == "c" else w)
    return out


def _run(framework: str, pair: Pair, arrays: list, output_weights: list, directions: list):
    """Values, first- and second-order gradients (None where there is none) as NumPy."""
    if framework == "tf":
        xs = [tf.constant(a) for a in arrays]
        fn, flatten, tape_type = pair.tf_fn, tf.nest.flatten, tf.GradientTape
        real, imag, reduce_sum = tf.math.real, tf.math.imag, tf.reduce_sum
    else:
        xs = [rg.constant(a) for a in arrays]
        fn, flatten, tape_type = pair.rg_fn, rg.nest.flatten, rg.GradientTape
        real, imag, reduce_sum = rg.math.real, rg.math.imag, rg.reduce_sum
    with tape_type(persistent=True) as outer:
        outer.watch(xs)
        with tape_type(persistent=True) as inner:
            inner.watch(xs)
            ys = flatten(fn(*xs))
            loss = _loss(ys, output_weights, real, imag, reduce_sum) if output_weights else None
        grads = inner.gradient(loss, xs) if loss is not None else [None] * len(xs)
        second = _loss(grads, directions, real, imag, reduce_sum) if loss is not None else 0.0
    grads2 = outer.gradient(second, xs) if not isinstance(second, float) else [None] * len(xs)
    as_numpy = lambda ts: [None if t is None else t.numpy() for t in ts]  # noqa: E731
    return as_numpy(ys), as_numpy(grads), as_numpy(grads2)


def _assert_close(got, expected, what, rtol, atol, none_is_zero=False):
    assert len(got) == len(expected), what
    for i, (g, e) in enumerate(zip(got, expected)):
        if none_is_zero and (g is None) != (e is None):
            # A gradient that does not depend on x (relu6, leaky_relu): TensorFlow's
            # *Grad ops pass back zeros where retrograd's rules leave it unconnected.
            g, e = (np.zeros_like(e), e) if g is None else (g, np.zeros_like(g))
        if e is None or g is None:
            assert g is None and e is None, f"{what} {i}: retrograd {g}, TensorFlow {e}"
            continue
        assert g.dtype == e.dtype, f"{what} {i}: dtype {g.dtype}, TensorFlow {e.dtype}"
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=f"{what} {i}")


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_float64_values_and_gradients_match_tensorflow(pair):
    arrays = pair.arrays()
    arrays = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64) for a in arrays]
    rng = np.random.default_rng(0)
    probe = [rg.constant(a) for a in arrays]
    out_values = [None if y is None else y.numpy() for y in rg.nest.flatten(pair.rg_fn(*probe))]
    output_weights = _weights(rng, out_values) if pair.order >= 1 else []
    directions = _weights(rng, arrays) if pair.order >= 2 else [None] * len(arrays)
    got = _run("rg", pair, arrays, output_weights, directions)
    expected = _run("tf", pair, arrays, output_weights, directions)
    for what, g, e in zip(("values", "gradient", "second-order gradient"), got, expected):
        second = what.startswith("second")
        _assert_close(g, e, f"{pair.name}: {what}", pair.rtol, 1e-10, none_is_zero=second)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_float32_values_and_dtypes_match_tensorflow(pair):
    arrays = [a.astype(np.complex64 if np.iscomplexobj(a) else np.float32) for a in pair.arrays()]
    got = rg.nest.flatten(pair.rg_fn(*[rg.constant(a) for a in arrays]))
    expected = tf.nest.flatten(pair.tf_fn(*[tf.constant(a) for a in arrays]))
    _assert_close(
        [g.numpy() for g in got], [e.numpy() for e in expected], pair.name, rtol=2e-6, atol=1e-6
    )


@pytest.mark.parametrize(
    "name, rg_fn, tf_fn, values",
    [
        ("is_nan", rg.math.is_nan, tf.math.is_nan, [1.0, np.nan, np.inf, -np.inf]),
        ("is_inf", rg.math.is_inf, tf.math.is_inf, [1.0, np.nan, np.inf, -np.inf]),
        ("is_finite", rg.math.is_finite, tf.math.is_finite, [1.0, np.nan, np.inf, -np.inf]),
        ("lgamma[poles]", rg.math.lgamma, tf.math.lgamma, [0.0, -1.0, -2.0, np.inf, -np.inf]),
        ("digamma[poles]", rg.math.digamma, tf.math.digamma, [0.0, -0.0, -1.0, -2.0]),
        ("round[ints]", rg.math.round, tf.math.round, np.array([-3, 2], np.int32)),
        ("relu6[ints]", rg.nn.relu6, tf.nn.relu6, np.array([-3, 2, 9], np.int32)),
        ("leaky_relu[ints]", rg.nn.leaky_relu, tf.nn.leaky_relu, np.array([-3, 2], np.int32)),
        (
            "divide_no_nan[ints]",
            lambda x: rg.math.divide_no_nan(x, x - 2),
            lambda x: tf.math.divide_no_nan(x, x - 2),
            np.array([1, 2, 3], np.int32),
        ),
        ("angle[zero]", rg.math.angle, tf.math.angle, np.array([0j, -1 + 0j, 1j, -1j])),
        (
            "cast[complex to int]",
            lambda z: rg.cast(z, rg.int32),
            lambda z: tf.cast(z, tf.int32),
            np.array([1.7 + 2j, -0.5j]),
        ),
    ],
)
def test_special_values_and_dtypes_match_tensorflow(name, rg_fn, tf_fn, values):
    got, expected = rg_fn(rg.constant(values)).numpy(), tf_fn(tf.constant(values)).numpy()
    assert got.dtype == expected.dtype, name
    np.testing.assert_array_equal(got, expected, err_msg=name)


def test_polygamma_at_poles_matches_tensorflow():
    a, x = np.array([0.0, 1.0, 2.0, 3.0, 1.5]), np.array([0.0, -1.0, -2.0, 0.0, 2.0])
    got = rg.math.polygamma(a, x).numpy()
    np.testing.assert_array_equal(got, tf.math.polygamma(a, x).numpy())


@pytest.mark.parametrize("op", ["floor", "ceil", "round", "is_nan"])
def test_rounding_has_no_gradient_like_tensorflow(op):
    x = rg.constant([0.3, 1.7])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = getattr(rg.math, op)(x)
    assert tape.gradient(y, x) is None
    if op != "is_nan":  # TensorFlow registers no gradient at all for IsNan (LookupError)
        tx = tf.constant([0.3, 1.7])
        with tf.GradientTape() as tape:
            tape.watch(tx)
            ty = getattr(tf.math, op)(tx)
        assert tape.gradient(ty, tx) is None


@pytest.mark.parametrize(
    "name",
    [
        "floor", "round", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh",
        "atanh", "complex", "clip_by_norm", "clip_by_global_norm",
    ],
)  # fmt: skip
def test_top_level_names_are_tensorflows(name):
    assert hasattr(tf, name) and hasattr(rg, name)


@pytest.mark.parametrize(
    "namespace, names",
    [
        (
            "math",
            "floor ceil round erf erfc lgamma digamma polygamma asin acos atan atan2 sinh cosh asinh acosh atanh softsign log_sigmoid xlogy xdivy squared_difference divide_no_nan is_nan is_inf is_finite real imag angle",
        ),
        ("nn", "softsign elu selu gelu leaky_relu relu6 silu swish"),
        ("linalg", "global_norm"),
    ],
)
def test_namespaced_names_are_tensorflows(namespace, names):
    for name in names.split():
        assert hasattr(getattr(tf, namespace), name), name
        assert hasattr(getattr(rg, namespace), name), name
