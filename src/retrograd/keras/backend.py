"""``tf.keras.backend``: Keras' settings (floatx, epsilon, image data format) and, as
TensorFlow 2.21 keeps them, Keras 2's backend functions (``K.mean``, ``K.batch_dot``,
``K.rnn`` ...)."""

from retrograd.keras.src.backend import (
    clear_session,
    epsilon,
    floatx,
    get_uid,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from retrograd.keras.src.legacy_control import *  # noqa: F403
from retrograd.keras.src.legacy_control import __all__ as _control
from retrograd.keras.src.legacy_conv import *  # noqa: F403
from retrograd.keras.src.legacy_conv import __all__ as _conv
from retrograd.keras.src.legacy_math import *  # noqa: F403
from retrograd.keras.src.legacy_math import __all__ as _math
from retrograd.keras.src.legacy_nn import *  # noqa: F403
from retrograd.keras.src.legacy_nn import __all__ as _nn
from retrograd.keras.src.legacy_state import *  # noqa: F403
from retrograd.keras.src.legacy_state import __all__ as _state
from retrograd.keras.src.legacy_tensors import *  # noqa: F403
from retrograd.keras.src.legacy_tensors import __all__ as _tensors

__all__ = [
    "clear_session",
    "epsilon",
    "floatx",
    "get_uid",
    "image_data_format",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    *_control,
    *_conv,
    *_math,
    *_nn,
    *_state,
    *_tensors,
]
