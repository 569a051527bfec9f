"""``tf.CriticalSection`` (functions run one at a time) and
``tf.nondifferentiable_batch_function`` (TensorFlow batches concurrent calls for serving;
in one process a call runs alone, and its outputs carry no gradient, as there).

>>> import retrograd as tf
>>> cs = tf.CriticalSection()
>>> v = tf.Variable(1.0)
>>> float(cs.execute(lambda: v.assign_add(1.0)))
2.0
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["CriticalSection", "nondifferentiable_batch_function"]

_names = itertools.count()


class CriticalSection:
    """Runs the functions given to ``execute`` one at a time (a lock around each call).

    >>> import retrograd as tf
    >>> tf.CriticalSection(name="cs").name
    'cs'
    """

    def __init__(self, name: str | None = None, shared_name: str | None = None,
                 critical_section_def: Any = None, import_scope: Any = None) -> None:  # fmt: skip
        self._name = name or shared_name or f"CriticalSection_{next(_names)}"
        self._lock = threading.RLock()

    @property
    def name(self) -> str:
        return self._name

    def execute(self, fn: Callable[[], Any], exclusive_resource_access: bool = True,
                name: str | None = None) -> Any:  # fmt: skip
        """``fn()``, with no other ``execute`` of this section running meanwhile."""
        with self._lock:
            return fn()


def nondifferentiable_batch_function(
    num_batch_threads: int,
    max_batch_size: int,
    batch_timeout_micros: int,
    allowed_batch_sizes: Sequence[int] | None = None,
    max_enqueued_batches: int = 10,
    autograph: bool = True,
    enable_large_batch_splitting: bool = True,
) -> Callable:
    """A decorator: the function's outputs (tensors) with their gradients stopped.

    >>> import retrograd as tf
    >>> @tf.nondifferentiable_batch_function(1, 10, 100000)
    ... def double(x):
    ...     return x * 2
    >>> double(tf.constant([1.0])).numpy().tolist()
    [2.0]
    """
    from retrograd.ops.array_ops import stop_gradient

    def decorator(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def batched(*args: Any) -> Any:
            from retrograd.core import nest

            return nest.map_structure(stop_gradient, fn(*args))

        return batched

    return decorator
