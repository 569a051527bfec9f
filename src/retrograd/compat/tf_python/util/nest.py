"""``tensorflow.python.util.nest``: nested structures, as ``tf.nest``."""

from retrograd.core.nest import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.core.nest import __all__  # noqa: F401
