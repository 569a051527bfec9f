"""Error types with TensorFlow's names (``tf.errors``).

Each also derives from the Python exception a NumPy user would expect, so both
``except retrograd.errors.InvalidArgumentError`` and ``except ValueError`` catch a bad
argument found while an op runs.
"""

from __future__ import annotations


class OpError(Exception):
    """Base class for errors raised while an op runs (TensorFlow's ``tf.errors.OpError``).

    >>> import retrograd as rg
    >>> try:
    ...     rg.reshape([1, 2, 3], [2, 2])
    ... except rg.errors.OpError as error:
    ...     caught = error
    >>> type(caught).__name__, isinstance(caught, rg.errors.OpError)
    ('InvalidArgumentError', True)

    Made by a program as TensorFlow's are, ``(node_def, op, message)``, it keeps them:

    >>> error = rg.errors.InvalidArgumentError(None, None, "bad value")
    >>> str(error), error.message, error.op, error.error_code
    ('bad value', 'bad value', None, 3)
    """

    _code = 2  # TensorFlow's error codes (UNKNOWN for the base class)

    def __init__(
        self, node_def: object = None, op: object = None, message: object = None,
        error_code: int | None = None, *args: object,
    ) -> None:  # fmt: skip
        if op is None and message is None and error_code is None and not args:
            node_def, message = None, node_def  # (retrograd raises with the message alone)
        super().__init__(message, *args)
        self._node_def, self._op = node_def, op
        self._error_code = self._code if error_code is None else error_code

    @property
    def message(self) -> str:
        """The error message."""
        return str(self.args[0]) if self.args else ""

    @property
    def op(self) -> object:
        """The op that failed (None when not known)."""
        return self._op

    @property
    def node_def(self) -> object:
        """The failed op's definition (None when not known)."""
        return self._node_def

    @property
    def error_code(self) -> int:
        """TensorFlow's integer code of the error kind."""
        return self._error_code


class InvalidArgumentError(OpError, ValueError):
    """An op received an argument it cannot handle (bad shape, index or value).

    >>> import retrograd as rg
    >>> try:
    ...     rg.gather([1, 2, 3], [5])
    ... except ValueError as error:  # InvalidArgumentError is a ValueError too
    ...     caught = error
    >>> type(caught).__name__
    'InvalidArgumentError'
    """

    _code = 3


class UnimplementedError(OpError, NotImplementedError):
    """The op exists but not for these arguments.

    >>> import retrograd as rg
    >>> issubclass(rg.errors.UnimplementedError, NotImplementedError)
    True
    """

    _code = 12


class NotFoundError(OpError, LookupError):
    """Something a call names does not exist: a checkpoint file that is not there, a kernel
    for these dtypes (TensorFlow's ``tf.errors.NotFoundError``).

    >>> import retrograd as rg
    >>> import tempfile, os
    >>> missing = os.path.join(tempfile.mkdtemp(), "ckpt-1")
    >>> try:
    ...     rg.train.Checkpoint(v=rg.Variable(1.0)).restore(missing)
    ... except rg.errors.NotFoundError as error:
    ...     print(type(error).__name__)
    CheckpointNotFoundError
    """

    _code = 5


class FailedPreconditionError(OpError, RuntimeError):
    """The system is not in a state to run the op: a graph variable read before its
    initializer ran (TensorFlow's ``tf.errors.FailedPreconditionError``).

    >>> import retrograd as rg
    >>> tf1 = rg.compat.v1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0)
    ...     with tf1.Session() as sess:
    ...         try:
    ...             sess.run(v)
    ...         except rg.errors.FailedPreconditionError:
    ...             caught = True
    >>> caught
    True
    """

    _code = 9


class OutOfRangeError(OpError):
    """An index past the end: a write beyond a TensorArray's size, an iterator at its end
    (TensorFlow's ``tf.errors.OutOfRangeError``).

    >>> import retrograd as rg
    >>> issubclass(rg.errors.OutOfRangeError, rg.errors.OpError)
    True
    """

    _code = 11


class UnavailableError(OpError, RuntimeError):
    """A service the program needs is gone: in ``tf.distribute``, a worker that stopped (the
    message names it).

    >>> import retrograd as rg
    >>> issubclass(rg.errors.UnavailableError, rg.errors.OpError)
    True
    """

    _code = 14


class DeadlineExceededError(OpError, TimeoutError):
    """An operation waited longer than its limit: in ``tf.distribute``, a collective whose
    other workers did not come in time.

    >>> import retrograd as rg
    >>> issubclass(rg.errors.DeadlineExceededError, TimeoutError)
    True
    """

    _code = 4


class MissingDependencyError(ImportError):
    """An op needs an optional dependency that is not installed; the message says which extra
    to install (``pip install 'retrograd[special]'``).

    >>> import retrograd as rg
    >>> issubclass(rg.errors.MissingDependencyError, ImportError)
    True
    """


class InaccessibleTensorError(ValueError):
    """A graph tensor used outside the function, branch or loop body that made it (a value
    appended to a Python list inside a ``while_loop`` body, then read after the loop);
    TensorFlow's ``InaccessibleTensorError``. Return such values, or carry them as loop
    variables (a ``TensorArray``).

    >>> import retrograd as rg
    >>> @rg.function
    ... def f(x):
    ...     values = []
    ...     for i in rg.range(3):
    ...         values.append(x * rg.cast(i, rg.float32))
    ...     return values
    >>> try:
    ...     f(rg.constant(1.0))
    ... except rg.errors.InaccessibleTensorError as error:
    ...     print("out of scope" in str(error), isinstance(error, ValueError))
    True True
    """


class LookupErrorInRegistry(LookupError):
    """An op type has no registered gradient function."""


__all__ = [
    "OpError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "UnavailableError",
    "DeadlineExceededError",
    "NotFoundError",
    "UnimplementedError",
    "FailedPreconditionError",
    "MissingDependencyError",
    "InaccessibleTensorError",
]

# Users meet these as ``retrograd.errors.X`` (the public namespace), so tracebacks say that.
for _name in __all__:
    globals()[_name].__module__ = "retrograd.errors"
del _name
