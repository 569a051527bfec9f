"""Complex tensors: complex/real/imag/angle/abs, and every elementwise op that TensorFlow
defines on complex dtypes, checked against NumPy and finite differences along the real and
imaginary parts (TensorFlow's convention: the gradient is dL/dRe + i dL/dIm)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, binary, check_forward, check_gradient, gradient_of, unary

# Inputs in the first quadrant, away from the branch cuts on the negative real axis (log,
# sqrt, pow, angle) and from the poles at 0.
COMPLEX = {"domain": (0.2, 1.0)}


def cunary(name, fn, reference, **kw):
    return unary(f"{name}[complex]", fn, reference, complex_inputs=(0,), **{**COMPLEX, **kw})


def cbinary(name, fn, reference, **kw):
    return binary(f"{name}[complex]", fn, reference, complex_inputs=(0, 1), **{**COMPLEX, **kw})


def _to_real(z):
    return rg.cast(z, z.dtype.real_dtype)


def _to_complex(x):
    return rg.cast(x, rg.complex128 if x.dtype == rg.float64 else rg.complex64)


def _sign(z):
    return z / np.abs(z)


CASES = [
    *binary("Complex", rg.complex, lambda re, im: re + 1j * im),
    *cunary("Real", rg.math.real, np.real),
    *cunary("Imag", rg.math.imag, np.imag),
    *cunary("Angle", rg.math.angle, np.angle),
    *cunary("ComplexAbs", rg.abs, np.abs),
    *cunary("Sign", rg.sign, _sign),
    *cunary("Conj", rg.math.conj, np.conj),
    *cunary("Cast", _to_real, np.real),
    *unary("Cast[to complex]", lambda x: _to_complex(x) * (1 + 2j), lambda x: x * (1 + 2j)),
    *cbinary("AddV2", rg.add, np.add),
    *cbinary("Sub", rg.subtract, np.subtract),
    *cbinary("Mul", rg.multiply, np.multiply),
    *cbinary("RealDiv", rg.realdiv, np.true_divide),
    *cbinary("Pow", rg.pow, np.power),
    *cbinary(
        "SquaredDifference", rg.math.squared_difference, lambda x, y: (x - y) * np.conj(x - y)
    ),
    *cunary("Neg", rg.negative, np.negative),
    *cunary("Square", rg.square, np.square),
    *cunary("Sqrt", rg.sqrt, np.sqrt),
    *cunary("Rsqrt", rg.math.rsqrt, lambda z: 1 / np.sqrt(z)),
    *cunary("Reciprocal", rg.math.reciprocal, np.reciprocal),
    *cunary("Exp", rg.exp, np.exp),
    *cunary("Log", rg.math.log, np.log),
    *cunary("Log1p", rg.math.log1p, np.log1p),
    *cunary("Expm1", rg.math.expm1, np.expm1),
    *cunary("Sin", rg.sin, np.sin),
    *cunary("Cos", rg.cos, np.cos),
    *cunary("Tan", rg.tan, np.tan),
    *cunary("Tanh", rg.tanh, np.tanh),
    *cunary("Sigmoid", rg.sigmoid, lambda z: 1 / (1 + np.exp(-z))),
    Case(
        "AddN[complex]",
        lambda a, b: rg.add_n([a, b, a]),
        ((2, 3), (2, 3)),
        lambda a, b: 2 * a + b,
        complex_inputs=(0, 1),
    ),
    Case(
        "Sum[complex]",
        lambda z: rg.reduce_sum(z, 1),
        ((2, 3),),
        lambda z: z.sum(1),
        complex_inputs=(0,),
    ),
    Case("Mean[complex]", rg.reduce_mean, ((2, 3),), np.mean, complex_inputs=(0,)),
    Case(
        "Prod[complex]",
        lambda z: rg.reduce_prod(z, 0),
        ((3, 2),),
        lambda z: z.prod(0),
        complex_inputs=(0,),
    ),
    # A real function of complex values, and a complex function of real ones, end to end.
    Case(
        "mixed",
        lambda z, x: rg.abs(rg.exp(z) * rg.complex(x, x * x)) + rg.math.angle(z * z),
        ((2, 3), (3,)),
        lambda z, x: np.abs(np.exp(z) * (x + 1j * x * x)) + np.angle(z * z),
        complex_inputs=(0,),
        **COMPLEX,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_gradient_of_the_squared_modulus_is_twice_z():
    """TensorFlow's convention: dL/dRe(z) + i dL/dIm(z), here 2 Re z + 2i Im z."""
    z = rg.constant([1 + 2j, -0.5 + 0.25j])
    g = gradient_of(lambda z: rg.math.real(z * rg.math.conj(z)), z)
    np.testing.assert_allclose(g.numpy(), 2 * z.numpy())


def test_holomorphic_gradients_are_conjugated():
    z = rg.constant(1 + 1j)
    g = gradient_of(lambda z: rg.math.real(z * z), z)  # d/dz z^2 = 2z, passed back as conj(2z)
    assert g.numpy() == 2 - 2j


@pytest.mark.parametrize(
    "f, at, expected",
    [
        (rg.abs, 0j, 0j),  # TensorFlow: 0 at the kink
        (rg.math.angle, 0j, complex(np.nan, np.nan)),
        (rg.sign, 0j, 0j),
    ],
)
def test_gradients_at_zero_follow_tensorflow(f, at, expected):
    g = gradient_of(f, rg.constant([at]))
    np.testing.assert_array_equal(g.numpy(), [expected])


def test_abs_and_angle_of_complex64_are_float32():
    z = rg.constant([3 + 4j], rg.complex64)
    assert rg.abs(z).dtype == rg.float32
    assert rg.math.angle(z).dtype == rg.float32
    assert rg.math.real(z).dtype == rg.float32
    assert rg.math.imag(z).dtype == rg.float32


def test_real_of_a_real_tensor_is_itself_and_imag_is_zero_without_gradient():
    x = rg.constant([1.5, -2.0])
    assert rg.math.real(x) is x
    assert rg.math.imag(x).numpy().tolist() == [0.0, 0.0]
    assert gradient_of(rg.math.imag, x) is None
    assert rg.math.imag(rg.constant([1, 2])).dtype == rg.int32


def test_angle_of_a_real_tensor_is_pi_where_negative_with_no_gradient():
    x = rg.constant([0.0, 1.5, -2.0])
    np.testing.assert_allclose(rg.math.angle(x).numpy(), [0.0, 0.0, np.pi])
    assert rg.math.angle(x).dtype == rg.float32
    assert gradient_of(rg.math.angle, x) is None


def test_complex_keeps_infinities_in_their_part():
    z = rg.complex([1.0, np.inf], [np.inf, 2.0])
    assert z.numpy().tolist() == [complex(1, np.inf), complex(np.inf, 2)]


def test_complex_of_python_floats_is_complex64_and_python_complex_is_complex128():
    assert rg.complex(1.0, 2.0).dtype == rg.complex64
    assert rg.constant(1 + 2j).dtype == rg.complex128


@pytest.mark.parametrize(
    "real, imag, error, match",
    [
        (
            rg.constant([1.0], rg.float16),
            rg.constant([1.0], rg.float16),
            TypeError,
            "float32 or float64",
        ),
        (1, 2, TypeError, "Complex: `x` must be a float tensor, got int32"),
        (rg.constant([1.0]), rg.constant([1.0], rg.float64), TypeError, "same dtype"),
        (rg.ones([2]), rg.ones([3]), rg.errors.InvalidArgumentError, "not broadcastable"),
    ],
)
def test_complex_refuses_bad_parts(real, imag, error, match):
    with pytest.raises(error, match=match):
        rg.complex(real, imag)


def test_casts_between_real_and_complex_follow_tensorflow():
    z = rg.constant([1.7 + 2j, 0 + 2j])
    assert rg.cast(z, rg.float32).numpy().tolist() == [np.float32(1.7), 0.0]
    assert rg.cast(z, rg.int32).numpy().tolist() == [1, 0]  # the real part, truncated
    assert rg.cast(z, rg.bool).numpy().tolist() == [True, False]
    assert rg.cast(rg.constant([1.5]), rg.complex64).numpy().tolist() == [1.5 + 0j]


def test_gradient_through_a_cast_to_complex_is_the_real_part():
    x = rg.constant([1.0, 2.0])
    g = gradient_of(lambda x: rg.math.imag(rg.cast(x, rg.complex64) * (1 + 3j)), x)
    assert g.dtype == rg.float32 and g.numpy().tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    "op",
    [rg.maximum, rg.minimum, rg.math.floormod, rg.math.atan2, rg.math.xlogy],
    ids=lambda f: f.__name__,
)
def test_binary_ops_refuse_complex_where_tensorflow_does(op):
    z = rg.constant([1 + 1j])
    if op is rg.math.xlogy:  # TensorFlow defines this one on complex numbers
        assert op(z, z).dtype == rg.complex128
        return
    with pytest.raises(TypeError, match="must be a"):
        op(z, z)


@pytest.mark.parametrize(
    "op",
    [rg.nn.relu, rg.nn.softplus, rg.math.floor, rg.math.erf, rg.nn.elu, rg.math.is_nan],
    ids=lambda f: f.__name__,
)
def test_unary_ops_refuse_complex_where_tensorflow_does(op):
    with pytest.raises(TypeError, match="complex128"):
        op(rg.constant([1 + 1j]))


def test_python_complex_scalars_adopt_the_tensor_dtype():
    z = rg.constant([1 + 1j], rg.complex64)
    assert (z * 1j).dtype == rg.complex64
    assert (2 * z).dtype == rg.complex64
    with pytest.raises(TypeError):
        rg.constant([1.0]) * 1j
