"""Every op, defined once: TensorFlow's type name, a NumPy kernel, attributes and, beside
it, the gradient function registered for that name. One module per family.
"""

from retrograd.ops import (  # noqa: F401  (import order settles the modules' cycle)
    activation_ops,
    array_ops,
    broadcast,
    clip_ops,
    comparison_ops,
    complex_ops,
    debug_ops,
    linalg_ops,
    math_ops,
    nn_ops,
    operators,
    reduction_ops,
    rounding_ops,
    safe_math_ops,
    special_ops,
    trig_ops,
)
