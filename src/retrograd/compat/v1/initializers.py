"""``retrograd.compat.v1.initializers``: TensorFlow 1's initializers, called TF1's way
(``init(shape, dtype=None, partition_info=None)``), and the variable initializer ops.

>>> import retrograd.compat.v1 as tf1
>>> tf1.initializers.constant(3.0)([2], None, None).numpy().tolist()
[3.0, 3.0]
"""

from retrograd.compat.graph_collections import (
    global_variables_initializer as global_variables,
)
from retrograd.compat.graph_collections import (
    local_variables_initializer as local_variables,
)
from retrograd.compat.graph_collections import tables_initializer
from retrograd.compat.graph_collections import variables_initializer as variables
from retrograd.compat.initializers import constant_initializer as constant
from retrograd.compat.initializers import glorot_normal_initializer as glorot_normal
from retrograd.compat.initializers import glorot_uniform_initializer as glorot_uniform
from retrograd.compat.initializers import (
    he_normal,
    he_uniform,
    lecun_normal,
    lecun_uniform,
)
from retrograd.compat.initializers import identity_initializer as identity
from retrograd.compat.initializers import ones_initializer as ones
from retrograd.compat.initializers import orthogonal_initializer as orthogonal
from retrograd.compat.initializers import random_normal_initializer as random_normal
from retrograd.compat.initializers import random_uniform_initializer as random_uniform
from retrograd.compat.initializers import truncated_normal_initializer as truncated_normal
from retrograd.compat.initializers import (
    uniform_unit_scaling_initializer as uniform_unit_scaling,
)
from retrograd.compat.initializers import variance_scaling_initializer as variance_scaling
from retrograd.compat.initializers import zeros_initializer as zeros

__all__ = [
    "constant",
    "global_variables",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "local_variables",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "tables_initializer",
    "truncated_normal",
    "uniform_unit_scaling",
    "variables",
    "variance_scaling",
    "zeros",
]
