"""Test helpers (TensorFlow's ``tf.test``): ``compute_gradient`` returns the theoretical and
numerical Jacobians to compare; ``check_gradients`` compares them for you.

>>> import retrograd as rg
>>> theoretical, numerical = rg.test.compute_gradient(rg.square, [rg.constant([1.0, 2.0])])
>>> theoretical
(array([[2., 0.],
       [0., 4.]], dtype=float32),)
"""

from retrograd.checking.compute_gradient import compute_gradient
from retrograd.checking.gradcheck import GradientCheckError, check_gradients

__all__ = ["compute_gradient", "check_gradients", "GradientCheckError"]
