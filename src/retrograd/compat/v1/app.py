"""``retrograd.compat.v1.app``: TensorFlow 1's ``tf.app.run``."""

from retrograd.compat.tf1_app import run

__all__ = ["run"]
