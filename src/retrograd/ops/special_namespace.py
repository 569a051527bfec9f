"""``retrograd.math.special`` (``tf.math.special``): the special functions of SciPy's
that TensorFlow names there.

>>> import retrograd as tf
>>> round(float(tf.math.special.dawsn(1.0)), 4)
0.5381
"""

from retrograd.ops.special_functions import (
    bessel_i0,
    bessel_i0e,
    bessel_i1,
    bessel_i1e,
    bessel_j0,
    bessel_j1,
    bessel_k0,
    bessel_k0e,
    bessel_k1,
    bessel_k1e,
    bessel_y0,
    bessel_y1,
    dawsn,
    expint,
    fresnel_cos,
    fresnel_sin,
    spence,
)

__all__ = [
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
    "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn",
    "expint", "fresnel_cos", "fresnel_sin", "spence",
]  # fmt: skip
