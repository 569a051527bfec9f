"""``tensorflow.python.ops.gradients_impl``: symbolic gradients where TensorFlow defines
them: ``gradients`` (TensorFlow 1's signature), ``gradients_v2`` (``tf.gradients``) and the
Hessians of both versions."""

from retrograd.autodiff.tape_values import UnconnectedGradients
from retrograd.compat.graph_ops import gradients, hessians
from retrograd.graph.symbolic import gradients as gradients_v2
from retrograd.graph.symbolic import hessians as HessiansV2

__all__ = ["HessiansV2", "UnconnectedGradients", "gradients", "gradients_v2", "hessians"]
