"""The matrix exponential, with an exact gradient.

The kernel is scaling and squaring with a diagonal Padé approximant (Higham 2005), in
double precision. The gradient is exact, not the derivative of the approximant: the
Fréchet derivative L(A, E) of exp at A in direction E is the upper-right block of
exp([[A, E], [0, A]]) (Najfeld and Havel 1995), and the vector-Jacobian product for an
upstream G is L(A^H, G). It is computed with this same op, so it differentiates again.

>>> import retrograd as rg
>>> rg.linalg.expm([[0.0, 1.0], [0.0, 0.0]]).numpy().tolist()
[[1.0, 1.0], [0.0, 1.0]]
"""

from __future__ import annotations

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.dimensions import dimension_value
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops
from retrograd.ops.linalg_ops import adjoint, matrix_arg

# Padé degree m -> (theta_m, coefficients b_0..b_m), double precision (Higham 2005, Table 2.3).
_PADE = {
    3: (1.495585217958292e-2, (120.0, 60.0, 12.0, 1.0)),
    5: (2.539398330063230e-1, (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0)),
    7: (
        9.504178996162932e-1,
        (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    ),
    9: (
        2.097847961257068e0,
        (
            17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0,
            2162160.0, 110880.0, 3960.0, 90.0, 1.0,
        ),
    ),
    13: (
        5.371920351148152e0,
        (
            64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
            1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
            33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0,
        ),
    ),
}  # fmt: skip


def _pade(a, degree):
    """Numerator p and denominator q of the degree-``degree`` Padé approximant at ``a``."""
    b = _PADE[degree][1]
    eye = np.broadcast_to(namespace_of(a).eye(a.shape[-1], dtype=a.dtype), a.shape)
    powers = [eye, a @ a]
    if degree == 13:
        a4 = powers[1] @ powers[1]
        a6 = a4 @ powers[1]
        inner_u = a6 @ (b[13] * a6 + b[11] * a4 + b[9] * powers[1])
        u = a @ (inner_u + b[7] * a6 + b[5] * a4 + b[3] * powers[1] + b[1] * eye)
        inner_v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * powers[1])
        v = inner_v + b[6] * a6 + b[4] * a4 + b[2] * powers[1] + b[0] * eye
        return v + u, v - u
    while len(powers) < degree // 2 + 1:
        powers.append(powers[-1] @ powers[1])
    u = a @ sum(b[2 * i + 1] * powers[i] for i in range(degree // 2 + 1))
    v = sum(b[2 * i] * powers[i] for i in range(degree // 2 + 1))
    return v + u, v - u


def _expm_kernel(x):
    if x.size == 0:
        return x.copy()
    a = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    norms = np.max(np.sum(np.abs(a), axis=-2), axis=-1)  # 1-norm of each matrix
    theta13 = _PADE[13][0]
    squarings = np.maximum(0, np.ceil(np.log2(np.maximum(norms, 1e-300) / theta13))).astype(int)
    a = a / (2.0**squarings)[..., None, None]
    largest = float(np.max(norms / 2.0**squarings))
    degree = next(m for m in (3, 5, 7, 9, 13) if largest <= _PADE[m][0] or m == 13)
    p, q = _pade(a, degree)
    result = np.linalg.solve(q, p)
    for step in range(int(np.max(squarings))):
        still = (squarings > step)[..., None, None]
        result = np.where(still, result @ result, result)
    return result.astype(x.dtype)


_MatrixExponential = define_op("MatrixExponential", _expm_kernel)


def expm(input: TensorLike, name: str | None = None) -> Tensor:
    """The matrix exponential of each square matrix in ``input`` [..., M, M].

    Computed in double precision and returned in the input dtype; the gradient is the exact
    Fréchet derivative (TensorFlow differentiates its Padé approximant instead).

    >>> import retrograd as rg
    >>> rg.linalg.expm(rg.constant([[0.0, 0.0], [0.0, 1.0]], rg.float64)).numpy().round(4).tolist()
    [[1.0, 0.0], [0.0, 2.7183]]
    """
    x = matrix_arg("MatrixExponential", input, square=True)
    return execute(_MatrixExponential, (x,), None, name)


@op_gradient("MatrixExponential")
def _expm_grad(op, grad):
    a_h = adjoint(op.inputs[0])
    n = dimension_value(a_h.shape[-1])
    zeros = array_ops.zeros_like(a_h)
    block = array_ops.concat(
        [array_ops.concat([a_h, grad], axis=-1), array_ops.concat([zeros, a_h], axis=-1)],
        axis=-2,
    )
    return expm(block)[..., :n, n:]
