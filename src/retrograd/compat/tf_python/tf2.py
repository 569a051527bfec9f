"""``tensorflow.python.tf2``: whether TensorFlow 2 behaviour is on. It is unless
``compat.v1.disable_v2_behavior()`` (or ``disable()``) turned it off, as in TensorFlow.

>>> from retrograd.compat.tf_python import tf2
>>> tf2.enabled()
True
"""

from retrograd.compat.private_modules import disable, enable, enabled

__all__ = ["disable", "enable", "enabled"]
