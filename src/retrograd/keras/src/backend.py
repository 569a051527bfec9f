"""``tf.keras.backend``: the float type, the fuzz factor, layer-name counters.

>>> import retrograd as rg
>>> rg.keras.backend.epsilon(), rg.keras.backend.floatx()
(1e-07, 'float32')
"""

from __future__ import annotations

import gc
import re
import threading
from typing import Any

from retrograd.core import dtypes

__all__ = [
    "epsilon",
    "set_epsilon",
    "floatx",
    "set_floatx",
    "clear_session",
    "unique_name",
    "image_data_format",
    "set_image_data_format",
    "get_uid",
]


class _LayerCalls(threading.local):
    """Per thread: the ``training=`` of the outermost Keras layer call running now, which inner
    layers called without one inherit (None outside any call), and whether a layer is called
    on symbolic inputs (the functional API: Keras' seed generators do not advance there), and
    the layers whose name scopes are entered, innermost last (with the scope manager each
    entered, None where the layer was innermost already)."""

    def __init__(self) -> None:
        self.training: Any = None
        self.symbolic: bool = False
        self.scopes: list[tuple[Any, Any]] = []


layer_calls = _LayerCalls()


class _Config:
    """Keras' process-wide settings (as in Keras: not per thread)."""

    def __init__(self) -> None:
        self.epsilon = 1e-7
        self.floatx = "float32"
        self.image_data_format = "channels_last"
        self.uids: dict[str, int] = {}
        self.name_counts: dict[str, int] = {}
        self.seed_generator: Any = None  # keras.random's generator for seed=None


_config = _Config()


def epsilon() -> float:
    """The fuzz factor losses clip probabilities with (1e-7).

    >>> import retrograd as rg
    >>> rg.keras.backend.epsilon()
    1e-07
    """
    return _config.epsilon


def set_epsilon(value: float) -> None:
    """Sets the fuzz factor.

    >>> import retrograd as rg
    >>> rg.keras.backend.set_epsilon(1e-5)
    >>> rg.keras.backend.epsilon()
    1e-05
    >>> rg.keras.backend.set_epsilon(1e-7)
    """
    _config.epsilon = float(value)


def floatx() -> str:
    """The default float type of layers' weights and inputs ('float32').

    >>> import retrograd as rg
    >>> rg.keras.backend.floatx()
    'float32'
    """
    return _config.floatx


def set_floatx(value: str) -> None:
    """Sets the default float type ('float16', 'float32' or 'float64').

    >>> import retrograd as rg
    >>> rg.keras.backend.set_floatx('float64')
    >>> rg.keras.layers.Dense(1)(rg.ones([1, 2], rg.float64)).dtype.name
    'float64'
    >>> rg.keras.backend.set_floatx('float32')
    """
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"set_floatx: unknown float type {value!r}")
    _config.floatx = value


def float_dtype() -> dtypes.DType:
    return dtypes.as_dtype(_config.floatx)


def clear_session(free_memory: bool = True) -> None:
    """Resets the layer-name counters (the next Dense is 'dense' again) and the shared
    random generator of ``keras.random``; with ``free_memory`` (Keras' default) Python's
    garbage collector then runs, so that objects no longer reachable are freed now.

    >>> import retrograd as rg
    >>> rg.keras.backend.clear_session()
    >>> rg.keras.layers.Dense(1).name, rg.keras.layers.Dense(1).name
    ('dense', 'dense_1')
    """
    _config.name_counts.clear()
    _config.uids.clear()
    _config.seed_generator = None
    if free_memory:
        gc.collect()


def snake_case(name: str) -> str:
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base: str) -> str:
    """``base``, then ``base_1``, ``base_2``, ... (Keras' automatic layer names).

    >>> from retrograd.keras.src import backend
    >>> backend.clear_session()
    >>> backend.unique_name('block'), backend.unique_name('block')
    ('block', 'block_1')
    """
    count = _config.name_counts.get(base, 0)
    _config.name_counts[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


def image_data_format() -> str:
    """The default data format of image layers: 'channels_last' (Keras' default) or
    'channels_first'.

    >>> import retrograd as rg
    >>> rg.keras.backend.image_data_format()
    'channels_last'
    """
    return _config.image_data_format


def set_image_data_format(data_format: str) -> None:
    """Sets the default data format of image layers.

    >>> import retrograd as rg
    >>> rg.keras.backend.set_image_data_format('channels_first')
    >>> rg.keras.layers.Conv2D(1, 1).data_format
    'channels_first'
    >>> rg.keras.backend.set_image_data_format('channels_last')
    """
    value = str(data_format).lower()
    if value not in ("channels_first", "channels_last"):
        raise ValueError(
            "The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
            f"Received: data_format={data_format}"
        )
    _config.image_data_format = value


def get_uid(prefix: str = "") -> int:
    """1, 2, 3 ... per ``prefix`` (Keras 2's unique ids; reset by ``clear_session``).

    >>> import retrograd as rg
    >>> rg.keras.backend.clear_session()
    >>> rg.keras.backend.get_uid('dense'), rg.keras.backend.get_uid('dense')
    (1, 2)
    """
    _config.uids[prefix] = _config.uids.get(prefix, 0) + 1
    return _config.uids[prefix]
