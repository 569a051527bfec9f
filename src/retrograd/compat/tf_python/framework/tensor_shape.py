"""``tensorflow.python.framework.tensor_shape``: shapes and their dimensions
(``dimension_value(x.shape[1])`` reads a dimension under TensorFlow 1 or 2 behaviour alike).

>>> from retrograd.compat.tf_python.framework import tensor_shape
>>> s = tensor_shape.as_shape([None, 3])
>>> tensor_shape.dimension_value(s[1]), tensor_shape.dimension_at_index(s, 0)
(3, Dimension(None))
"""

from retrograd.core.dimensions import Dimension, as_dimension, dimension_value
from retrograd.core.shapes import (
    TensorShape,
    dimension_at_index,
    disable_v2_tensorshape,
    enable_v2_tensorshape,
)
from retrograd.core.shapes import TensorShape as as_shape

__all__ = [
    "Dimension",
    "TensorShape",
    "as_dimension",
    "as_shape",
    "dimension_at_index",
    "dimension_value",
    "disable_v2_tensorshape",
    "enable_v2_tensorshape",
]
