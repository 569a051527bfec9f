"""The N-D Fourier transforms (values against NumPy, gradients against finite differences to
second order, complex inputs as pairs of reals) and the general convolutions."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _complex(x):
    return rg.complex128 if x.dtype == rg.float64 else rg.complex64


CASES = [
    Case("FFTND", lambda x: rg.fftnd(x, [3, 4], [0, 1]), ((3, 4),), lambda x: np.fft.fftn(x),
         complex_inputs=(0,)),
    Case("FFTND", lambda x: rg.fftnd(x, [5], [-1]), ((2, 4),), lambda x: np.fft.fft(x, 5),
         complex_inputs=(0,)),
    Case("IFFTND", lambda x: rg.ifftnd(x, [2, 3], [1, 2]), ((2, 2, 4),),
         lambda x: np.fft.ifftn(x, s=(2, 3), axes=(1, 2)), complex_inputs=(0,)),
    Case("FFTND", lambda x: rg.rfftnd(x, [3, 4], [0, 1], _complex(x)), ((3, 4),),
         lambda x: np.fft.rfftn(x)),
    Case("IFFTND", lambda x: rg.irfftnd(x, [3, 5], [0, 1], x.dtype.real_dtype), ((3, 3),),
         lambda x: np.fft.irfftn(x, s=(3, 5)), complex_inputs=(0,)),
    Case("IFFTND", lambda x: rg.irfftnd(x, [4], [0], x.dtype.real_dtype), ((3,),),
         lambda x: np.fft.irfft(x, 4), complex_inputs=(0,)),
    Case("Conv2D", lambda x, w: rg.conv(x, w, 1, "VALID", groups=2), ((1, 3, 3, 4), (2, 2, 2, 6)),
         None),
    Case("Conv3D", lambda x: rg.extract_volume_patches(x, [1, 2, 1, 2, 1], 1, "SAME"),
         ((1, 2, 3, 2, 2),), None),
]  # fmt: skip


@pytest.mark.parametrize("case", [c for c in CASES if c.reference], ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_backprop_v2_functions_are_conv2d_gradients():
    rng = np.random.default_rng(0)
    x, w = rg.constant(rng.normal(size=(1, 5, 5, 2))), rg.constant(rng.normal(size=(3, 3, 2, 3)))
    dy = rg.constant(rng.normal(size=(1, 3, 3, 3)))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = rg.nn.conv2d(x, w, 2, "SAME")
    gx, gw = tape.gradient(y, [x, w], output_gradients=dy)
    np.testing.assert_allclose(rg.conv2d_backprop_input_v2(x, w, dy, 2, "SAME").numpy(), gx)
    np.testing.assert_allclose(rg.conv2d_backprop_filter_v2(x, w, dy, 2, "SAME").numpy(), gw)
