"""What TensorFlow 1's namespace shares with retrograd's: every public name of ``retrograd``
(its ops, ``nn``, ``linalg``, ...) and, as at TensorFlow 1's top level, of ``retrograd.math``
(``log``, ``rsqrt``, ``squared_difference``, ...). Looked up when asked for, so a name
added to retrograd is there without a second list; a name retrograd lacks raises an
AttributeError that says so.

>>> shared_value("matmul", "tf.compat.v1").__name__
'matmul'
>>> shared_value("no_such_op", "tf.compat.v1")
Traceback (most recent call last):
...
AttributeError: retrograd does not implement tf.compat.v1.no_such_op
"""

from __future__ import annotations

from typing import Any

__all__ = ["shared_names", "shared_value"]


def _sources(part: str) -> list[Any]:
    import retrograd  # the top level: imported when a name is asked for, never at import

    if part:
        return [getattr(retrograd, part)]
    return [retrograd, retrograd.math]


def shared_names(part: str = "") -> list[str]:
    """The names reachable through the sources of ``part`` (``""``: the top level and
    ``math``; else that namespace of retrograd: ``"nn"`` for ``tf.nn``)."""
    names: set[str] = set()
    for module in _sources(part):
        names.update(module.__all__)
    return sorted(names)


def shared_value(name: str, namespace: str, part: str = "") -> Any:
    """The value of ``name`` in the first source of ``part`` that has it; else an
    AttributeError naming ``namespace.name``."""
    if not name.startswith("__"):
        for module in _sources(part):
            if name in module.__all__:
                return getattr(module, name)
    raise AttributeError(f"retrograd does not implement {namespace}.{name}")
