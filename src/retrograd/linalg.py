"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.decomposition_ops import cholesky, eigh, eigvalsh, qr, svd
from retrograd.ops.expm_ops import expm
from retrograd.ops.linalg_ops import adjoint, cross, matmul, matrix_transpose, matvec, tensordot
from retrograd.ops.matrix_diag_ops import band_part, diag, diag_part, eye, set_diag, trace
from retrograd.ops.matrix_inverse_ops import (
    det,
    inv,
    logdet,
    pinv,
    slogdet,
    solve,
    triangular_solve,
)
from retrograd.ops.norm_ops import norm

__all__ = [
    "matmul",
    "adjoint",
    "band_part",
    "cholesky",
    "cross",
    "det",
    "diag",
    "diag_part",
    "eigh",
    "eigvalsh",
    "expm",
    "eye",
    "inv",
    "logdet",
    "matrix_transpose",
    "matvec",
    "norm",
    "pinv",
    "qr",
    "set_diag",
    "slogdet",
    "solve",
    "svd",
    "tensordot",
    "trace",
    "triangular_solve",
]
