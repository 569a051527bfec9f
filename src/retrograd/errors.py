"""Error types with TensorFlow's names (``tf.errors``): each also derives from the Python
exception a NumPy user would expect.

>>> import retrograd as rg
>>> issubclass(rg.errors.InvalidArgumentError, ValueError)
True
"""

from retrograd.core.errors import (
    FailedPreconditionError,
    InaccessibleTensorError,
    InvalidArgumentError,
    MissingDependencyError,
    NotFoundError,
    OpError,
    OutOfRangeError,
    UnimplementedError,
)
from retrograd.training.storage import CheckpointFormatError, CheckpointNotFoundError

__all__ = [
    "OpError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "NotFoundError",
    "UnimplementedError",
    "FailedPreconditionError",
    "NotFoundError",
    "MissingDependencyError",
    "InaccessibleTensorError",
    "CheckpointFormatError",
    "CheckpointNotFoundError",
]
