"""Every op, defined once: TensorFlow's type name, a NumPy kernel, attributes and, beside
it, the gradient function registered for that name. One module per family.
"""

from retrograd.ops import (  # noqa: F401  (import order settles the modules' cycle)
    array_ops,
    broadcast,
    comparison_ops,
    conv_ops,
    debug_ops,
    embedding_ops,
    linalg_ops,
    math_ops,
    nn_layer_ops,
    nn_losses,
    nn_ops,
    operators,
    pool_ops,
    random_ops,
    reduction_ops,
)
