"""``retrograd.compat.v1.logging``: TensorFlow 1's ``tf.logging`` (Python logging under the
logger ``tensorflow``)."""

from retrograd.compat.tf1_logging import (
    DEBUG,
    ERROR,
    FATAL,
    INFO,
    WARN,
    debug,
    error,
    fatal,
    get_verbosity,
    info,
    log,
    set_verbosity,
    warn,
    warning,
)

__all__ = [
    "DEBUG",
    "ERROR",
    "FATAL",
    "INFO",
    "WARN",
    "debug",
    "error",
    "fatal",
    "get_verbosity",
    "info",
    "log",
    "set_verbosity",
    "warn",
    "warning",
]
