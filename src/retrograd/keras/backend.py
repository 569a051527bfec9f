"""``tf.keras.backend``: ``epsilon``, ``floatx``, ``clear_session``."""

from retrograd.keras.src.backend import (
    clear_session,
    epsilon,
    floatx,
    set_epsilon,
    set_floatx,
    unique_name,
)

__all__ = [
    "epsilon",
    "set_epsilon",
    "floatx",
    "set_floatx",
    "clear_session",
    "unique_name",
]
