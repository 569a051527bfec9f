"""Complex matrices: gradients follow TensorFlow's convention, checked at first order against
central differences along the real and imaginary parts.

For a real loss L(z), TensorFlow's gradient is dL/dRe(z) + i dL/dIm(z). With upstream
gradients w_k for outputs y_k, the loss is L = sum_k Re(sum(conj(w_k) * y_k)). Eigen- and
singular vectors enter through phase-invariant products (each column times the conjugate of
its first entry), since their phase is arbitrary.
"""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg


def _random_like(rng, value):
    shape = np.shape(value)
    if np.iscomplexobj(value):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape)


def check_complex_gradient(f, *arrays, delta=1e-6, atol=1e-6, rtol=1e-5):
    rng = np.random.default_rng(0)
    tensors = [rg.constant(np.asarray(a, np.complex128)) for a in arrays]
    outputs = rg.nest.flatten(f(*tensors))
    weights = [_random_like(rng, y.numpy()) for y in outputs]

    def loss(values):
        ys = rg.nest.flatten(f(*[rg.constant(v) for v in values]))
        return sum(float(np.sum(np.real(np.conj(w) * y.numpy()))) for w, y in zip(weights, ys))

    with rg.GradientTape() as tape:
        tape.watch(tensors)
        ys = rg.nest.flatten(f(*tensors))
    seeds = [rg.constant(w.astype(y.numpy().dtype)) for w, y in zip(weights, ys)]
    grads = tape.gradient(ys, tensors, output_gradients=seeds)
    values = [t.numpy().copy() for t in tensors]
    for i, (g, base) in enumerate(zip(grads, values)):
        expected = np.zeros(base.shape, np.complex128)
        for position in np.ndindex(base.shape):
            for direction in (1.0, 1j):
                moved = [v.copy() for v in values]
                moved[i][position] += delta * direction
                up = loss(moved)
                moved[i][position] -= 2 * delta * direction
                down = loss(moved)
                expected[position] += direction * (up - down) / (2 * delta)
        computed = np.zeros(base.shape) if g is None else g.numpy()
        np.testing.assert_allclose(computed, expected, atol=atol, rtol=rtol, err_msg=f"input {i}")


def dominant(z):
    return z + 3 * rg.eye(z.shape.as_list()[-1], dtype=z.dtype)


def hpd(z):
    n = z.shape.as_list()[-1]
    return rg.matmul(z, z, adjoint_b=True) + n * rg.eye(n, dtype=z.dtype)


def hermitian_spread(z):
    n = z.shape.as_list()[-1]
    return z + rg.linalg.adjoint(z) + rg.constant(np.diag(4.0 * np.arange(n)), z.dtype)


def phase_free(vectors, reference):
    return vectors * rg.math.conj(reference[..., :1, :])


def _eigh(z):
    e, v = rg.linalg.eigh(hermitian_spread(z))
    return e, phase_free(v, v)


def _svd(z):
    s, u, v = rg.linalg.svd(z)
    return s, phase_free(u, u), phase_free(v, u)


FUNCTIONS = {
    "inv": lambda z: rg.linalg.inv(dominant(z)),
    "inv[adjoint]": lambda z: rg.linalg.inv(dominant(z), adjoint=True),
    "det": lambda z: rg.linalg.det(dominant(z)),
    "slogdet": lambda z: rg.linalg.slogdet(dominant(z)),
    "logdet": lambda z: rg.linalg.logdet(hpd(z)),
    "solve": lambda z: rg.linalg.solve(dominant(z), z[..., :1]),
    "solve[adjoint]": lambda z: rg.linalg.solve(dominant(z), z[..., :1], adjoint=True),
    "triangular_solve": lambda z: rg.linalg.triangular_solve(dominant(z), z[..., :2]),
    "triangular_solve[upper,adjoint]": lambda z: rg.linalg.triangular_solve(
        dominant(z), z, lower=False, adjoint=True
    ),
    "cholesky": lambda z: rg.linalg.cholesky(hpd(z)),
    "qr": rg.linalg.qr,
    "qr[wide]": lambda z: rg.linalg.qr(z[..., :2, :]),
    "qr[tall]": lambda z: rg.linalg.qr(z[..., :2]),
    "eigh": _eigh,
    "eigvalsh": lambda z: rg.linalg.eigvalsh(hermitian_spread(z)),
    "svd": _svd,
    "svd[tall]": lambda z: _svd(z[..., :2]),
    "svd[wide]": lambda z: _svd(z[..., :2, :]),
    "svd[values]": lambda z: rg.linalg.svd(z, compute_uv=False),
    "expm": rg.linalg.expm,
    "norm": rg.norm,
    "matvec": lambda z: rg.linalg.matvec(z, z[..., 0, :], adjoint_a=True),
    "tensordot": lambda z: rg.tensordot(z, z, [[0], [1]]),
    "band_part": lambda z: rg.linalg.band_part(z, 1, 0),
    "diag_part": lambda z: rg.linalg.diag_part(z, k=(-1, 1)),
    "set_diag": lambda z: rg.linalg.set_diag(z, z[..., 0, :]),
    "trace": rg.linalg.trace,
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_complex_gradient_matches_finite_differences(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    z = rng.uniform(-1, 1, (3, 3)) + 1j * rng.uniform(-1, 1, (3, 3))
    check_complex_gradient(FUNCTIONS[name], z)


def test_complex_values_match_numpy():
    rng = np.random.default_rng(7)
    z = (rng.standard_normal((2, 3, 3)) + 1j * rng.standard_normal((2, 3, 3))).astype(np.complex64)
    a = z + 3 * np.eye(3, dtype=np.complex64)
    np.testing.assert_allclose(rg.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=1e-5)
    np.testing.assert_allclose(rg.linalg.det(a).numpy(), np.linalg.det(a), rtol=1e-5)
    sign, log_abs = rg.linalg.slogdet(a)
    ref_sign, ref_log = np.linalg.slogdet(a)
    assert sign.dtype == log_abs.dtype == rg.complex64
    np.testing.assert_allclose(sign.numpy(), ref_sign, rtol=1e-5)
    np.testing.assert_allclose(log_abs.numpy().real, ref_log, rtol=1e-5)
    np.testing.assert_allclose(
        rg.linalg.solve(a, z).numpy(), np.linalg.solve(a, z), rtol=1e-4, atol=1e-5
    )
    h = a @ np.conj(np.swapaxes(a, -1, -2))
    np.testing.assert_allclose(
        rg.linalg.cholesky(h).numpy(), np.linalg.cholesky(h), rtol=1e-4, atol=1e-5
    )
    assert rg.linalg.logdet(h).dtype == rg.float32
    np.testing.assert_allclose(rg.linalg.logdet(h).numpy(), np.linalg.slogdet(h)[1], rtol=1e-5)
