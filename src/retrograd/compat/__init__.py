"""``retrograd.compat``: TensorFlow 1 names (``compat.v1``)."""

from retrograd.compat import v1

__all__ = ["v1"]
