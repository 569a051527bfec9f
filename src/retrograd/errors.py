"""Error types with TensorFlow's names (``tf.errors``): each also derives from the Python
exception a NumPy user would expect.

>>> import retrograd as rg
>>> issubclass(rg.errors.InvalidArgumentError, ValueError)
True
"""

from retrograd.core.errors import (
    DeadlineExceededError,
    FailedPreconditionError,
    InaccessibleTensorError,
    InvalidArgumentError,
    MissingDependencyError,
    NotFoundError,
    OpError,
    OutOfRangeError,
    UnavailableError,
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
    "MissingDependencyError",
    "InaccessibleTensorError",
    "CheckpointFormatError",
    "CheckpointNotFoundError",
    "UnavailableError",
    "DeadlineExceededError",
]
