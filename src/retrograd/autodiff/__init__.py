"""Automatic differentiation in one namespace: ``GradientTape`` (reverse mode) and
``ForwardAccumulator`` (forward mode), as ``tf.autodiff`` names them, and the function
transforms of :mod:`retrograd.functional` (``grad``, ``vjp``, ``jvp``, ``jacfwd``,
``jacrev``, ``hessian``, ``hvp``), as JAX names them; ``gradient_request`` tells a custom
gradient's ``grad_fn`` what it is asked for.

>>> import retrograd as rg
>>> rg.autodiff.hessian(lambda x: x * x * x)(rg.constant(2.0))
<retrograd.Tensor: shape=(), dtype=float32, numpy=12.0>
"""

from retrograd.autodiff import composite_rules  # noqa: F401  (second order of fused ops)
from retrograd.autodiff.forward import ForwardAccumulator
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
from retrograd.autodiff.gradient_request import GradientRequest, gradient_request
from retrograd.autodiff.tape import GradientTape, UnconnectedGradients

__all__ = [
    "ForwardAccumulator",
    "GradientTape",
    "UnconnectedGradients",
    "grad",
    "value_and_grad",
    "vjp",
    "jvp",
    "jacfwd",
    "jacrev",
    "jacobian",
    "hessian",
    "hvp",
    "gradient_request",
    "GradientRequest",
]
