"""``tensorflow.python.framework.errors``: the error types, as ``tf.errors``."""

from retrograd.core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    OpError,
    UnimplementedError,
)

__all__ = ["FailedPreconditionError", "InvalidArgumentError", "OpError", "UnimplementedError"]
