"""``tensorflow.python.ops.custom_gradient``: ``custom_gradient`` and the gradient wrappers
where TensorFlow defines them."""

from retrograd.autodiff.custom_gradient import custom_gradient
from retrograd.autodiff.gradient_wrappers import grad_pass_through, recompute_grad

__all__ = ["custom_gradient", "grad_pass_through", "recompute_grad"]
