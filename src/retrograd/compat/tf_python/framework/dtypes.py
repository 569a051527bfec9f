"""``tensorflow.python.framework.dtypes``: the dtypes, as ``tf.dtypes``."""

from retrograd.core.dtypes import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.core.dtypes import __all__  # noqa: F401
