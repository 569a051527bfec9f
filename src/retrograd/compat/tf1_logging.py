"""TensorFlow 1's ``tf.logging``: Python logging under the logger ``tensorflow`` with TF's
level names, for the many TF1 scripts that start with
``tf.logging.set_verbosity(tf.logging.INFO)``.

>>> set_verbosity(INFO); get_verbosity() == INFO
True
"""

from __future__ import annotations

import logging
from typing import Any

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

DEBUG, INFO, WARN, ERROR, FATAL = (
    logging.DEBUG,
    logging.INFO,
    logging.WARNING,
    logging.ERROR,
    logging.FATAL,
)

_logger = logging.getLogger("tensorflow")


def set_verbosity(level: int) -> None:
    """Messages below ``level`` are not shown."""
    _logger.setLevel(level)
    if not _logger.handlers and not logging.getLogger().handlers:
        _logger.addHandler(logging.StreamHandler())


def get_verbosity() -> int:
    return _logger.getEffectiveLevel()


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.log(level, msg, *args, **kwargs)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.debug(msg, *args, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.info(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.warning(msg, *args, **kwargs)


warn = warning


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.error(msg, *args, **kwargs)


def fatal(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.critical(msg, *args, **kwargs)
