"""``tensorflow.python.eager.backprop``: ``GradientTape`` where TensorFlow defines it."""

from retrograd.autodiff.tape import GradientTape, UnconnectedGradients

__all__ = ["GradientTape", "UnconnectedGradients"]
