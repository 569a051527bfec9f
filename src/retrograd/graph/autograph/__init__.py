"""AutoGraph: Python control flow on tensors inside ``function``, by source transformation.

``function`` converts the Python function it traces (and the user functions that one calls):
``if``/``while``/``for`` on graph tensors become ``cond``/``while_loop``; on Python values
they stay Python. ``lowering`` turns ``return``/``break``/``continue`` into flags,
``transformer`` rewrites the statements, ``operators`` and ``loops`` run them, ``conversion``
compiles and caches, ``api`` is the public ``retrograd.autograph`` namespace.
"""

__all__ = [
    "api",
    "composites",
    "conversion",
    "convert_api",
    "experimental",
    "loops",
    "lowering",
    "operators",
    "transformer",
]
