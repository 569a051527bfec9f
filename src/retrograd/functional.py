"""Function transforms, as JAX and ``torch.func`` offer them: ``grad``, ``value_and_grad``,
``vjp``, ``jvp``, ``jacfwd``, ``jacrev`` (``jacobian``), ``hessian`` and ``hvp``.

>>> import retrograd as rg
>>> from retrograd import functional as F
>>> F.grad(lambda x: rg.reduce_sum(x ** 3))(rg.constant([1.0, 2.0])).numpy().tolist()
[3.0, 12.0]
"""

from retrograd.autodiff.functional import (
    grad,
    hessian,
    hvp,
    jacfwd,
    jacobian,
    jacrev,
    jvp,
    value_and_grad,
    vjp,
)

__all__ = [
    "grad",
    "value_and_grad",
    "vjp",
    "jvp",
    "jacfwd",
    "jacrev",
    "jacobian",
    "hessian",
    "hvp",
]
