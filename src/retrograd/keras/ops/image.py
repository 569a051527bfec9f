"""``keras.ops.image``: Keras' image functions (resizing, colour spaces,
transforms, patches)."""

__all__ = []
