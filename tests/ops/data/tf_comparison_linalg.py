"""The linalg ops for the comparison with TensorFlow (tests/ops/test_against_tensorflow_linalg.py;
goldens made by make_tf_comparison_goldens.py): each row written once against a library
namespace ``lib``, so the two share names and signatures by construction. Eigen- and
singular vectors enter through phase-invariant products, since neither library fixes their
sign. Plain code: no TensorFlow or retrograd import here.
"""

from __future__ import annotations

import numpy as np


def dominant(lib, x):
    return x + 3 * lib.eye(x.shape[-1], dtype=x.dtype)


def hpd(lib, x):
    n = x.shape[-1]
    return lib.matmul(x, x, adjoint_b=True) + n * lib.eye(n, dtype=x.dtype)


def spread(lib, x):
    n = x.shape[-1]
    return x + lib.linalg.adjoint(x) + lib.constant(np.diag(4.0 * np.arange(n)), x.dtype)


def phase_free(lib, vectors, reference):
    return vectors * lib.math.conj(reference[..., :1, :])


def eigh_invariants(lib, x):
    e, v = lib.linalg.eigh(spread(lib, x))
    return e, phase_free(lib, v, v)


def svd_invariants(lib, x, full_matrices=False):
    s, u, v = lib.linalg.svd(x, full_matrices=full_matrices)
    return s, phase_free(lib, u, u), phase_free(lib, v, u)


ROWS = {
    "matvec": (lambda lib, x: lib.linalg.matvec(x, x[..., 0, :], transpose_a=True), (2, 3, 3)),
    "tensordot[int]": (lambda lib, x: lib.tensordot(x, x, 1), (2, 3, 2)),
    "tensordot[pairs]": (lambda lib, x: lib.tensordot(x, x, [[0, 2], [2, 0]]), (2, 3, 2)),
    "cross": (lambda lib, x: lib.linalg.cross(x, x[::-1]), (2, 3)),
    "adjoint": (lambda lib, x: lib.linalg.adjoint(x), (2, 3, 4)),
    "trace": (lambda lib, x: lib.linalg.trace(x), (2, 3, 4)),
    "diag_part": (lambda lib, x: lib.linalg.diag_part(x, k=(-1, 2), align="LEFT_RIGHT", padding_value=3), (2, 3, 4)),
    "diag": (lambda lib, x: lib.linalg.diag(x, k=(-1, 1), num_cols=4), (2, 3, 3)),
    "set_diag": (lambda lib, x: lib.linalg.set_diag(x, x[..., :2, :3] * 2, k=(0, 1)), (2, 3, 4)),
    "band_part": (lambda lib, x: lib.linalg.band_part(x, 1, 0), (2, 3, 4)),
    "inv": (lambda lib, x: lib.linalg.inv(dominant(lib, x)), (2, 3, 3)),
    "inv[adjoint]": (lambda lib, x: lib.linalg.inv(dominant(lib, x), adjoint=True), (3, 3)),
    "det": (lambda lib, x: lib.linalg.det(dominant(lib, x)), (2, 3, 3)),
    "slogdet": (lambda lib, x: lib.linalg.slogdet(dominant(lib, x) * lib.constant([[-1.0], [1.0], [1.0]], x.dtype)), (2, 3, 3)),
    "logdet": (lambda lib, x: lib.linalg.logdet(hpd(lib, x)), (2, 3, 3)),
    "solve": (lambda lib, x: lib.linalg.solve(dominant(lib, x), x[..., :2]), (2, 3, 3)),
    "solve[adjoint]": (lambda lib, x: lib.linalg.solve(dominant(lib, x), x, adjoint=True), (3, 3)),
    "triangular_solve": (lambda lib, x: lib.linalg.triangular_solve(dominant(lib, x), x[..., :2]), (2, 3, 3)),
    "triangular_solve[upper,adjoint,broadcast]": (
        lambda lib, x: lib.linalg.triangular_solve(dominant(lib, x[:1]), x, lower=False, adjoint=True),
        (2, 3, 3),
    ),
    "cholesky": (lambda lib, x: lib.linalg.cholesky(hpd(lib, x)), (2, 3, 3)),
    "qr": (lambda lib, x: lib.linalg.qr(x), (2, 3, 3)),
    "qr[tall]": (lambda lib, x: lib.linalg.qr(x), (4, 2)),
    "qr[wide]": (lambda lib, x: lib.linalg.qr(x), (2, 4)),
    "qr[full,wide]": (lambda lib, x: lib.linalg.qr(x, full_matrices=True), (2, 4)),
    "eigh": (eigh_invariants, (2, 3, 3)),
    "eigvalsh": (lambda lib, x: lib.linalg.eigvalsh(spread(lib, x)), (3, 3)),
    "svd": (svd_invariants, (2, 3, 3)),
    "svd[tall]": (svd_invariants, (4, 2)),
    "svd[wide]": (svd_invariants, (2, 4)),
    "svd[full,square]": (lambda lib, x: svd_invariants(lib, x, True), (3, 3)),
    "svd[values]": (lambda lib, x: lib.linalg.svd(x, compute_uv=False), (2, 4, 3)),
    "pinv": (lambda lib, x: lib.linalg.pinv(x), (2, 4, 3)),
    "expm": (lambda lib, x: lib.linalg.expm(x), (2, 3, 3)),
    "expm[squared]": (lambda lib, x: lib.linalg.expm(4 * x), (3, 3)),
    **{
        f"norm[{ord},{axis}]": (lambda lib, x, ord=ord, axis=axis: lib.norm(x, ord=ord, axis=axis, keepdims=True), (2, 3, 4))
        for ord, axis in [
            ("euclidean", None), (1, None), (np.inf, -1), (3, 1), (0.5, -1), (2, None),
            ("fro", (1, 2)), (1, (1, 2)), (np.inf, (2, 1)), (2, (0, 2)), ("euclidean", (0, 1)),
        ]
    },
}  # fmt: skip

# TensorFlow's gradients that are wrong for complex input (see the tests below); complex
# rows compare only the rest.
COMPLEX = [
    name
    for name in ROWS
    if not name.startswith(("cross", "det", "slogdet", "pinv", "norm"))
    or name in ("norm[euclidean,None]", "norm[fro,(1, 2)]")
]


def real_input(name: str) -> np.ndarray:
    return np.random.default_rng(sum(map(ord, name))).uniform(-1, 1, ROWS[name][1])


def complex_input(name: str) -> np.ndarray:
    rng = np.random.default_rng(sum(map(ord, name)))
    shape = ROWS[name][1]
    return rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)


def complex_matrix() -> np.ndarray:
    rng = np.random.default_rng(5)
    return rng.uniform(-1, 1, (3, 3)) + 1j * rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)


def values_and_gradient(lib, f, x, weights):
    """Values of ``f(lib, x)`` and the gradient of ``sum(outputs * weights)`` (complex
    weights as TensorFlow's output_gradients: the conjugate convention of both)."""
    x = lib.constant(x)
    with lib.GradientTape() as tape:
        tape.watch(x)
        outputs = lib.nest.flatten(f(lib, x))
    seeds = [lib.constant(w.astype(y.numpy().dtype)) for w, y in zip(weights, outputs)]
    grad = tape.gradient(outputs, x, output_gradients=seeds)
    return [y.numpy() for y in outputs], grad.numpy()


def weights_for(outputs: list) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [rng.standard_normal(tuple(y.shape)) * (1 + 1j if y.dtype.is_complex else 1)
            for y in outputs]  # fmt: skip


DEGENERATE = {
    "eigh": np.eye(3),
    "eigvalsh": np.zeros((3, 3)),
    "svd": np.eye(3),
    "svd[tall]": np.eye(4, 2),
    "svd[values]": np.diag([1.0, 0.0, 0.0])[None, :, :2].repeat(2, 0),
}

ZERO_PIVOTS = [np.zeros((3, 3)), np.tril(np.ones((3, 3))) - np.diag([0.0, 1.0, 0.0])]
