"""``keras.ops.linalg``: Keras' linear-algebra functions."""

from retrograd.keras.src.ops.linalg import (  # noqa: A004
    cholesky,
    cholesky_inverse,
    det,
    eigh,
    inv,
    jvp,
    lstsq,
    matrix_rank,
    norm,
    pinv,
    qr,
    solve,
    solve_triangular,
    svd,
)

__all__ = [
    "cholesky",
    "cholesky_inverse",
    "det",
    "eigh",
    "inv",
    "jvp",
    "lstsq",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]
