"""Every op, defined once: TensorFlow's type name, a NumPy kernel, attributes and, beside
it, the gradient function registered for that name. One module per family.
"""

from retrograd.ops import (  # noqa: F401  (import order settles the modules' cycle)
    array_ops,
    broadcast,
    comparison_ops,
    creation_ops,
    debug_ops,
    decomposition_ops,
    einsum_ops,
    expm_ops,
    gather_ops,
    index_args,
    linalg_ops,
    math_ops,
    matrix_diag_ops,
    matrix_inverse_ops,
    nn_ops,
    norm_ops,
    operators,
    pad_ops,
    rearrange_ops,
    reduction_ops,
    scatter_ops,
    sort_ops,
    statistics_ops,
)
