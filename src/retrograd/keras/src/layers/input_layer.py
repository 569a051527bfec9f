"""``keras.Input`` and ``keras.layers.InputLayer``: the symbolic inputs of functional
models, with their batch shape and dtype.

>>> import retrograd as rg
>>> rg.keras.Input((3,), name="features").name
'features'
"""

from __future__ import annotations

from retrograd.keras.src import backend
from retrograd.keras.src.keras_tensor import KerasTensor
from retrograd.keras.src.layers.base import Layer

__all__ = ["InputLayer", "Input"]


class InputLayer(Layer):
    """The layer an ``Input`` tensor comes from (its output is the input itself).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.InputLayer(shape=(3,))
    >>> layer.batch_shape, layer.output.shape
    ((None, 3), (None, 3))
    """

    def __init__(
        self,
        shape=None,
        batch_size=None,
        dtype=None,
        sparse=None,
        ragged=None,
        batch_shape=None,
        input_tensor=None,
        optional=False,
        name=None,
        **kwargs,
    ):
        if "input_shape" in kwargs and shape is None:
            shape = kwargs.pop("input_shape")
        if sparse or ragged:
            raise ValueError("InputLayer: retrograd has no sparse or ragged tensors")
        tensor_name = name
        super().__init__(name=name or backend.unique_name("input_layer"), dtype=dtype, **kwargs)
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise ValueError(
                    f"Argument `input_tensor` must be a KerasTensor. Received: {input_tensor}"
                )
            batch_shape, dtype = input_tensor.shape, input_tensor.dtype
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size, *tuple(shape))
        self.batch_shape = tuple(batch_shape)
        self.optional = bool(optional)
        self.output = KerasTensor(self.batch_shape, dtype or backend.floatx(), name=tensor_name)
        self.output.input_layer = self
        self.built = True

    def get_config(self):
        return {"batch_shape": self.batch_shape, "dtype": self.compute_dtype, "name": self.name}


def Input(
    shape=None,
    batch_size=None,
    dtype=None,
    sparse=None,
    ragged=None,
    batch_shape=None,
    name=None,
    tensor=None,
    optional=False,
):
    """A symbolic input of the functional API, of shape ``(batch_size, *shape)``.

    >>> import retrograd as rg
    >>> rg.keras.Input((3,)).shape
    (None, 3)
    """
    layer = InputLayer(
        shape,
        batch_size,
        dtype,
        sparse,
        ragged,
        batch_shape,
        tensor,
        optional,
        name=name,
    )
    return layer.output
