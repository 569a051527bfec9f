"""``retrograd.compat``: TensorFlow 1 names (``compat.v1``), and running TensorFlow programs
unchanged (``runner``)."""

from retrograd.compat import v1

__all__ = ["v1"]
