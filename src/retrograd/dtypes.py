"""Data types (TensorFlow's ``tf.dtypes``): DType objects over NumPy dtypes.

>>> import retrograd as rg
>>> rg.dtypes.as_dtype("int64") is rg.dtypes.int64
True
"""

from retrograd.core.dtypes import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.core.dtypes import __all__  # noqa: F401
