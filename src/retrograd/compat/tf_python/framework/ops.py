"""``tensorflow.python.framework.ops``: gradient registration (``RegisterGradient``, the
registry ``_gradient_registry``: ``lookup("MatMul")`` gives the rule and ``_registry``
maps each op type to ``{"type": rule, "location": where}``, as TensorFlow's), graphs and
their scopes, control dependencies, tensor conversion.

>>> from retrograd.compat.tf_python.framework import ops
>>> ops._gradient_registry.lookup("MatMul").__name__
'_matmul_grad'
>>> "MatMul" in ops._gradient_registry._registry
True
"""

from retrograd.compat.graph_collections import add_to_collection, get_collection
from retrograd.compat.graph_ops import control_dependencies
from retrograd.compat.private_modules import gradient_registry_view as _gradient_registry
from retrograd.compat.v1_scope_classes import name_scope
from retrograd.core.registry import (
    NotDifferentiable,
    RegisterGradient,
    no_gradient,
)
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.graph.graph import (
    Graph,
    get_default_graph,
    reset_default_graph,
)
from retrograd.graph.graph import (
    GraphOperation as Operation,
)

__all__ = [
    "Graph", "NotDifferentiable", "Operation", "RegisterGradient", "Tensor",
    "_gradient_registry", "add_to_collection", "control_dependencies", "convert_to_tensor",
    "get_collection", "get_default_graph", "name_scope", "no_gradient", "reset_default_graph",
]  # fmt: skip
