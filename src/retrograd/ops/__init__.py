"""Every op, defined once: TensorFlow's type name, a NumPy kernel, attributes and, beside
it, the gradient function registered for that name. One module per family.
"""

from retrograd.ops import (  # noqa: F401  (import order settles the modules' cycle)
    broadcast,
    array_ops,
    comparison_ops,
    math_ops,
    reduction_ops,
    linalg_ops,
    nn_ops,
    debug_ops,
    operators,
)
