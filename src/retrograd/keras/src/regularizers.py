"""``tf.keras.regularizers``: penalties added to a layer's ``losses``.

>>> import retrograd as rg
>>> float(rg.keras.regularizers.L2(0.5)(rg.constant([1.0, 2.0])))
2.5
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import tf_ops

__all__ = [
    "Regularizer",
    "L1",
    "L2",
    "L1L2",
    "OrthogonalRegularizer",
    "l1",
    "l2",
    "l1_l2",
    "orthogonal_regularizer",
    "get",
    "serialize",
    "deserialize",
]


class Regularizer:
    """Base class: ``regularizer(weight)`` returns a scalar penalty.

    >>> import retrograd as rg
    >>> class Abs(rg.keras.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return rg.reduce_sum(rg.abs(x))
    >>> Abs()(rg.constant([-1.0, 2.0])).numpy().tolist()
    3.0
    """

    def __call__(self, x: Any) -> Any:
        return tf_ops.constant(0.0)

    def get_config(self) -> dict:
        return {}


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)``.

    >>> import retrograd as rg
    >>> rg.keras.regularizers.L1L2(l1=0.5, l2=0.25)(rg.constant([-1.0, 2.0])).numpy().tolist()
    2.75
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        penalty = tf_ops.constant(0.0, dtype=x.dtype)
        if self.l1:
            penalty = penalty + self.l1 * tf_ops.reduce_sum(tf_ops.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * tf_ops.reduce_sum(tf_ops.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """``l1 * sum(|x|)``.

    >>> import retrograd as rg
    >>> rg.keras.regularizers.L1(0.5)(rg.constant([-1.0, 2.0])).numpy().tolist()
    1.5
    """

    def __init__(self, l1: float = 0.01) -> None:
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    """``l2 * sum(x**2)``.

    >>> import retrograd as rg
    >>> rg.keras.regularizers.L2(0.5)(rg.constant([-1.0, 2.0])).numpy().tolist()
    2.5
    """

    def __init__(self, l2: float = 0.01) -> None:
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """Penalises correlation between the rows (or columns) of a 2-D weight: ``factor`` times
    the mean absolute cosine similarity of distinct pairs.

    >>> import retrograd as rg
    >>> float(rg.keras.regularizers.OrthogonalRegularizer(1.0)(rg.eye(3)))
    0.0
    """

    def __init__(self, factor: float = 0.01, mode: str = "rows") -> None:
        if mode not in ("rows", "columns"):
            raise ValueError(
                'Invalid value for argument `mode`. Expected one of {"rows", "columns"}. '
                f"Received: mode={mode}"
            )
        self.factor, self.mode = float(factor), mode

    def __call__(self, inputs):
        if len(inputs.shape) != 2:
            raise ValueError(
                "Inputs to OrthogonalRegularizer must have rank 2. Received: "
                f"inputs.shape={tuple(inputs.shape)}"
            )
        x = tf_ops.convert_to_tensor(inputs)
        if self.mode == "columns":
            x = tf_ops.transpose(x)
        x = x * tf_ops.rsqrt(
            tf_ops.maximum(tf_ops.reduce_sum(tf_ops.square(x), 1, keepdims=True), 1e-14)
        )
        size = int(x.shape[0])
        product = tf_ops.matmul(x, x, transpose_b=True)
        off_diagonal = product * (1.0 - tf_ops.eye(size, dtype=x.dtype))
        pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * tf_ops.reduce_sum(tf_ops.abs(off_diagonal)) / pairs

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer


def serialize(regularizer: Any) -> Any:
    """The regularizer as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> rg.keras.regularizers.serialize(rg.keras.regularizers.L2(0.1))["config"]
    {'l2': 0.1}
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(regularizer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The regularizer a serialized dict describes.

    >>> import retrograd as rg
    >>> r = rg.keras.regularizers
    >>> type(r.deserialize(r.serialize(r.L1(0.5)))).__name__
    'L1'
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier: Any) -> Any:
    """A regularizer from 'l1', 'l2', 'l1_l2', an instance or a callable.

    >>> import retrograd as rg
    >>> type(rg.keras.regularizers.get('l2')).__name__, rg.keras.regularizers.get(None)
    ('L2', None)
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        table = {
            "l1": L1,
            "l2": L2,
            "l1_l2": L1L2,
            "orthogonal_regularizer": OrthogonalRegularizer,
        }
        if identifier.lower() not in table:
            raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
        return table[identifier.lower()]()
    if isinstance(identifier, dict):  # a serialized object (a saved model's config)
        from retrograd.keras.src import serialization

        return serialization.deserialize_keras_object(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret regularizer identifier: {identifier!r}")
