"""``retrograd.compat``: TensorFlow 1 names (``compat.v1``), TensorFlow 2's (``compat.v2``:
retrograd itself), and running TensorFlow programs unchanged (``runner``).

>>> import retrograd as rg
>>> rg.compat.v2 is rg
True
"""

from retrograd.compat import v1

__all__ = ["v1", "v2"]


def __getattr__(name: str):
    """``compat.v2``: the top level, looked up when asked for (it imports this package)."""
    if name == "v2":
        import retrograd

        return retrograd
    raise AttributeError(f"module 'retrograd.compat' has no attribute {name!r}")
