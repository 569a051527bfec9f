"""The linalg ops against TensorFlow on the same inputs: values and gradients (skipped when
TensorFlow is not installed; CI does not install it).

Each row is written once against a library namespace ``lib`` (retrograd or tensorflow), so
the two share names and signatures by construction. Eigen- and singular vectors enter through
phase-invariant products, since neither library fixes their sign.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import retrograd as rg  # noqa: E402


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


def _values_and_gradients(lib, f, x, weights):
    x = lib.constant(x)
    with lib.GradientTape() as tape:
        tape.watch(x)
        outputs = [y for y in tf.nest.flatten(f(lib, x))]
    seeds = [lib.constant(w.astype(y.numpy().dtype)) for w, y in zip(weights, outputs)]
    grad = tape.gradient(outputs, x, output_gradients=seeds)
    return [y.numpy() for y in outputs], grad.numpy()


def _compare(name, x):
    f, _ = ROWS[name]
    rng = np.random.default_rng(1)
    outputs = tf.nest.flatten(f(tf, tf.constant(x)))
    weights = [
        rng.standard_normal(y.shape) * (1 + 1j if y.dtype.is_complex else 1) for y in outputs
    ]
    tf_values, tf_grad = _values_and_gradients(tf, f, x, weights)
    rg_values, rg_grad = _values_and_gradients(rg, f, x, weights)
    for ours, theirs in zip(rg_values, tf_values):
        assert ours.dtype == theirs.dtype, name
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10, err_msg=name)
    np.testing.assert_allclose(rg_grad, tf_grad, rtol=1e-7, atol=1e-8, err_msg=name)


@pytest.mark.parametrize("name", list(ROWS))
def test_real_values_and_gradients_match_tensorflow(name):
    shape = ROWS[name][1]
    x = np.random.default_rng(sum(map(ord, name))).uniform(-1, 1, shape)
    _compare(name, x)


@pytest.mark.parametrize("name", COMPLEX)
def test_complex_values_and_gradients_match_tensorflow(name):
    shape = ROWS[name][1]
    rng = np.random.default_rng(sum(map(ord, name)))
    _compare(name, rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape))


def _complex_matrix():
    rng = np.random.default_rng(5)
    return rng.uniform(-1, 1, (3, 3)) + 1j * rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)


def test_complex_det_gradient_adds_the_conjugate_tensorflow_omits():
    a = _complex_matrix()
    _, tf_grad = _values_and_gradients(
        tf, lambda lib, x: lib.linalg.det(x), a, [np.array(1.0 + 0j)]
    )
    _, rg_grad = _values_and_gradients(
        rg, lambda lib, x: lib.linalg.det(x), a, [np.array(1.0 + 0j)]
    )
    d = np.linalg.det(a)
    np.testing.assert_allclose(rg_grad, tf_grad * np.conj(d) / d, rtol=1e-10)


def test_complex_slogdet_gradient_matches_tensorflow_for_log_abs_and_adds_the_phase():
    a = _complex_matrix()
    w_log = np.array(0.7 + 0j)
    f = lambda lib, x: lib.linalg.slogdet(x)  # noqa: E731
    no_phase = [np.array(0j), w_log]
    np.testing.assert_allclose(
        _values_and_gradients(rg, f, a, no_phase)[1],
        _values_and_gradients(tf, f, a, no_phase)[1],
        rtol=1e-10,
    )
    with_phase = [np.array(0.3 - 0.4j), w_log]
    assert not np.allclose(
        _values_and_gradients(rg, f, a, with_phase)[1],
        _values_and_gradients(tf, f, a, with_phase)[1],
    )


def test_triangular_solve_with_a_zero_pivot_matches_tensorflow():
    b = np.ones((3, 2))
    for matrix in (np.zeros((3, 3)), np.tril(np.ones((3, 3))) - np.diag([0.0, 1.0, 0.0])):
        ours = rg.linalg.triangular_solve(matrix, b).numpy()
        theirs = tf.linalg.triangular_solve(matrix, b).numpy()
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize(
    "name, x",
    [
        ("eigh", np.eye(3)),
        ("eigvalsh", np.zeros((3, 3))),
        ("svd", np.eye(3)),
        ("svd[tall]", np.eye(4, 2)),
        ("svd[values]", np.diag([1.0, 0.0, 0.0])[None, :, :2].repeat(2, 0)),
    ],
)
def test_degenerate_values_give_tensorflows_gradients(name, x):
    _compare(name, x)
