"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.clip_ops import global_norm
from retrograd.ops.decomposition_ops import cholesky, eigh, eigvalsh, qr, svd
from retrograd.ops.einsum_ops import einsum
from retrograd.ops.expm_ops import expm
from retrograd.ops.linalg_band_ops import (
    banded_triangular_solve,
    eigh_tridiagonal,
    logm,
    sqrtm,
    tridiagonal_matmul,
    tridiagonal_solve,
)
from retrograd.ops.linalg_extra_ops import (
    cholesky_solve,
    eig,
    eigvals,
    lstsq,
    lu,
    lu_matrix_inverse,
    lu_reconstruct,
    lu_solve,
    matrix_rank,
    normalize,
    tensor_diag,
    tensor_diag_part,
)
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
from retrograd.ops.statistics_ops import l2_normalize

__all__ = [
    "banded_triangular_solve",
    "cholesky_solve",
    "eig",
    "eigh_tridiagonal",
    "eigvals",
    "logm",
    "lstsq",
    "lu",
    "lu_matrix_inverse",
    "lu_reconstruct",
    "lu_solve",
    "matrix_rank",
    "normalize",
    "sqrtm",
    "tensor_diag",
    "tensor_diag_part",
    "tridiagonal_matmul",
    "tridiagonal_solve",
    "matmul",
    "einsum",
    "l2_normalize",
    "global_norm",
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
