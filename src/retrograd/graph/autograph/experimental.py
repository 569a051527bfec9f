"""``retrograd.autograph.experimental`` (TensorFlow's ``tf.autograph.experimental``)."""

from retrograd.graph.autograph.conversion import do_not_convert

__all__ = ["do_not_convert"]
