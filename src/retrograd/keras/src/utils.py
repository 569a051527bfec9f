"""``tf.keras.utils``: ``to_categorical``, ``set_random_seed``.

>>> import retrograd as rg
>>> rg.keras.utils.to_categorical([0, 2], num_classes=3)
array([[1., 0., 0.],
       [0., 0., 1.]])
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.ops import random_seeding

__all__ = ["to_categorical", "set_random_seed"]


def to_categorical(x: Any, num_classes: int | None = None) -> np.ndarray:
    """One-hot rows (float64, as Keras) for integer class labels; a trailing axis of size
    1 is dropped first.

    >>> import retrograd as rg
    >>> rg.keras.utils.to_categorical([0, 2, 1], num_classes=3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    x = np.asarray(x)
    if x.dtype.kind not in "iu" and not (x.dtype.kind == "f" and np.all(x == np.round(x))):
        raise ValueError(f"to_categorical: labels must be integers, got dtype {x.dtype}")
    x = x.astype(np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x.reshape(x.shape[:-1])
    if num_classes is None:
        num_classes = int(x.max()) + 1 if x.size else 0
    if x.size and (x.min() < 0 or x.max() >= num_classes):
        raise ValueError(
            f"to_categorical: labels must be in [0, {num_classes}), got {x.min()}..{x.max()}"
        )
    out = np.zeros((*x.shape, num_classes))
    np.put_along_axis(out, x[..., None], 1.0, axis=-1)
    return out


def set_random_seed(seed: int) -> None:
    """Seeds Python's, NumPy's and retrograd's random generators at once (and restarts
    ``keras.random``'s shared generator); Keras' unseeded initializers and seed generators
    take their seeds from Python's ``random``, so the layers made next get Keras' weights.

    >>> import retrograd as rg
    >>> rg.keras.utils.set_random_seed(3)
    >>> a = rg.random.uniform([2]).numpy().tolist()
    >>> rg.keras.utils.set_random_seed(3)
    >>> rg.random.uniform([2]).numpy().tolist() == a
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed!r}")
    backend._config.seed_generator = None  # keras.random's shared generator starts again
    random.seed(seed)
    np.random.seed(seed)
    random_seeding.set_seed(seed)
