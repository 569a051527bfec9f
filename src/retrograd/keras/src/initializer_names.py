"""The rest of ``tf.keras.initializers``: the lower-case names Keras also exports
(``glorot_uniform`` is ``GlorotUniform``), ``serialize``/``deserialize``, and the ``STFT``
initializer (the kernels of a short-time Fourier transform as a convolution).

>>> import retrograd as rg
>>> rg.keras.initializers.glorot_uniform is rg.keras.initializers.GlorotUniform
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core import tensor as core_tensor
from retrograd.keras.src import backend
from retrograd.keras.src.initializers import (
    Constant,
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    Identity,
    Initializer,
    LecunNormal,
    LecunUniform,
    Ones,
    Orthogonal,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    VarianceScaling,
    Zeros,
)

__all__ = [
    "STFT",
    "STFTInitializer",
    "IdentityInitializer",
    "OrthogonalInitializer",
    "constant",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "stft",
    "truncated_normal",
    "variance_scaling",
    "zeros",
    "serialize",
    "deserialize",
]

IdentityInitializer = identity = Identity
OrthogonalInitializer = orthogonal = Orthogonal
constant, zeros, ones = Constant, Zeros, Ones
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling = VarianceScaling
glorot_normal, glorot_uniform = GlorotNormal, GlorotUniform
he_normal, he_uniform = HeNormal, HeUniform
lecun_normal, lecun_uniform = LecunNormal, LecunUniform


def _window(name: str, length: int, periodic: bool) -> np.ndarray:
    """SciPy's ``get_window(name, length, fftbins=periodic)`` for the cosine windows."""
    coefficients = {"hann": (0.5, 0.5), "hamming": (0.54, 0.46)}.get(name)
    if coefficients is None:
        from retrograd.ops.special_ops import scipy_special  # (SciPy is optional)

        scipy_special("STFT")
        import scipy.signal

        return scipy.signal.get_window(name, length, periodic)
    if length == 1:
        return np.ones(1)
    period = length if periodic else length - 1
    a, b = coefficients
    return a - b * np.cos(2 * np.pi * np.arange(length) / period)


class STFT(Initializer):
    """The real (``side='real'``) or imaginary parts of the Fourier basis, windowed and
    scaled, for a kernel of shape ``(frame_length, 1, fft_bins)``.

    >>> import retrograd as rg
    >>> rg.keras.initializers.STFT(window=None)((2, 1, 2)).numpy().ravel().tolist()
    [1.0, 1.0, 1.0, -1.0]
    """

    def __init__(
        self, side: str = "real", window: Any = "hann", scaling: Any = "density", periodic=False
    ) -> None:
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(
                "Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received "
                f"scaling={scaling}"
            )
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dtype = dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype
        frame_length, _, bins = shape
        length = (bins - 1) * 2
        freq = np.arange(bins, dtype=dtype).reshape(1, 1, bins) / dtype(length)
        time = np.arange(frame_length, dtype=dtype).reshape(frame_length, 1, 1)
        args = (-2 * time * freq) * dtype(np.pi)
        kernel = (np.cos(args) if self.side == "real" else np.sin(args)).astype(dtype)
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _window(win, frame_length, self.periodic)
            win = np.asarray(win, dtype=dtype)
            if win.shape != (frame_length,):
                raise ValueError(
                    "The shape of `window` must be equal to [frame_length].Received: window "
                    f"shape={win.shape}"
                )
            win = win.reshape(frame_length, 1, 1)
            scale = 1.0
            if self.scaling == "density":
                scale = np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                scale = np.sum(np.abs(win))
            kernel = (kernel * win / scale).astype(dtype)
        return core_tensor.constant(kernel)

    def get_config(self) -> dict:
        return {
            "side": self.side,
            "window": self.window,
            "scaling": self.scaling,
            "periodic": self.periodic,
        }


STFTInitializer = stft = STFT


def serialize(initializer: Any) -> Any:
    """The initializer as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> rg.keras.initializers.serialize(rg.keras.initializers.Zeros())["class_name"]
    'Zeros'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(initializer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The initializer a serialized dict describes.

    >>> import retrograd as rg
    >>> i = rg.keras.initializers
    >>> type(i.deserialize(i.serialize(i.HeNormal(seed=1)))).__name__
    'HeNormal'
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)
