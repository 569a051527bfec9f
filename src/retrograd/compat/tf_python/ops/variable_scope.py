"""``tensorflow.python.ops.variable_scope``: TensorFlow 1's variable scopes where
TensorFlow defines them."""

from retrograd.compat.v1_scope_classes import variable_scope
from retrograd.compat.variable_scopes import (
    AUTO_REUSE,
    VariableScope,
    get_variable,
    get_variable_scope,
)

__all__ = ["AUTO_REUSE", "VariableScope", "get_variable", "get_variable_scope", "variable_scope"]
