"""Fourier transforms (FFT, IFFT) against NumPy and finite differences along the real and
imaginary parts of their complex inputs, composed with other ops too."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import fft_ops
from tests.ops.table import Case, check_forward, check_gradient

CASES = [
    Case("FFT", fft_ops.fft, ((5,),), lambda z: np.fft.fft(z), complex_inputs=(0,)),
    Case("FFT", fft_ops.fft, ((2, 4),), lambda z: np.fft.fft(z), complex_inputs=(0,)),
    Case("IFFT", fft_ops.ifft, ((5,),), lambda z: np.fft.ifft(z), complex_inputs=(0,)),
    Case("IFFT", fft_ops.ifft, ((3, 4),), lambda z: np.fft.ifft(z), complex_inputs=(0,)),
    Case(
        "FFT[nonlinear]",
        lambda z: rg.abs(fft_ops.fft(z * z)),
        ((2, 3),),
        lambda z: np.abs(np.fft.fft(z * z)),
        complex_inputs=(0,),
        domain=(0.2, 1.0),
    ),
    Case(
        "IFFT[of FFT]",
        lambda z: fft_ops.ifft(fft_ops.fft(z) * fft_ops.fft(z)),
        ((4,),),
        lambda z: np.fft.ifft(np.fft.fft(z) ** 2),
        complex_inputs=(0,),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_real_inputs_are_refused_with_the_op_name():
    with pytest.raises(TypeError, match="FFT"):
        fft_ops.fft([1.0, 2.0])
    with pytest.raises(ValueError, match="IFFT"):
        fft_ops.ifft(np.complex64(1))
