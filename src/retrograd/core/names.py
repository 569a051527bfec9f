"""Names of graph operations and scopes: TensorFlow's rule, checked wherever a name enters.

A name at the root must match ``^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$``; inside a scope the first
character may also be ``_``, ``/``, ``\\``, ``>`` or ``-``. Names are only ever data (dict keys,
text in messages): nothing turns them into code, and this check keeps them printable too.
``valid_name_from`` derives an acceptable name from any text (a Python function's
``__name__``) instead of refusing it.

>>> check_name("dense/kernel", "op name")
'dense/kernel'
>>> valid_name_from("<lambda>")
'lambda'
>>> check_name("a; import os", "op name")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: op name 'a; import os' is not a valid root scope name. A root scope name has ...
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ROOT_NAME_PATTERN", "SCOPE_NAME_PATTERN", "check_name", "valid_name_from"]

ROOT_NAME_PATTERN = r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$"
SCOPE_NAME_PATTERN = r"^[A-Za-z0-9_.\\/>-]*$"
_ROOT = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*")
_SCOPED = re.compile(r"[A-Za-z0-9_.\\/>-]*")
_INVALID = re.compile(r"[^A-Za-z0-9_.\\/>-]+")


def check_name(name: Any, what: str, nested: bool = False) -> str:
    """Returns ``name`` if TensorFlow accepts it as a name (``nested``: inside a scope);
    otherwise raises TypeError (not a string) or ValueError naming ``what`` it was for."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string, got {type(name).__name__}: {name!r}")
    if (_SCOPED if nested else _ROOT).fullmatch(name):
        return name
    kind, pattern = ("scope", SCOPE_NAME_PATTERN) if nested else ("root scope", ROOT_NAME_PATTERN)
    raise ValueError(
        f"{what} {name!r} is not a valid {kind} name. A {kind} name has to match the "
        f"following pattern: {pattern}"
    )


def valid_name_from(text: Any, default: str = "function") -> str:
    """A valid root name made from ``text``: runs of other characters become ``_``, leading
    characters a root name cannot start with are dropped; ``default`` if nothing is left."""
    cleaned = _INVALID.sub("_", str(text)).lstrip("_\\/>-").rstrip("_\\/>-")
    return cleaned[:200] if cleaned else default
