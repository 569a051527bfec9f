"""``retrograd.compat.v1.logging``: TensorFlow 1's ``tf.logging`` (Python logging under the
logger ``tensorflow``)."""

from retrograd.compat.tf1_logging import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.compat.tf1_logging import __all__  # noqa: F401
