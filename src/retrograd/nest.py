"""Nested structures (TensorFlow's ``tf.nest``): lists, tuples, namedtuples and dicts.

>>> import retrograd as rg
>>> rg.nest.flatten({"b": [1, 2], "a": (3,)})
[3, 1, 2]
"""

from retrograd.core.nest import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.core.nest import __all__  # noqa: F401
