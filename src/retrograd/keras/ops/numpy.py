"""``keras.ops.numpy``: Keras' NumPy-like functions on tensors (the list is kept once, in
keras/src/ops/numpy.py, which gathers them from the modules that define them).

>>> import retrograd as rg
>>> rg.keras.ops.numpy.add(1.0, 2.0).numpy()
np.float32(3.0)
"""

from retrograd.keras.src.ops import numpy as _gathered
from retrograd.keras.src.ops.numpy import *  # noqa: F403  (exactly the names of its __all__)

__all__ = list(_gathered.__all__)
