"""Automatic differentiation in one namespace: ``GradientTape`` (reverse mode) and
``ForwardAccumulator`` (forward mode), as ``tf.autodiff`` names them.

>>> import retrograd as rg
>>> rg.autodiff.ForwardAccumulator is rg.forward.ForwardAccumulator
True
"""

from retrograd.forward import ForwardAccumulator
from retrograd.tape import GradientTape, UnconnectedGradients

__all__ = ["ForwardAccumulator", "GradientTape", "UnconnectedGradients"]
