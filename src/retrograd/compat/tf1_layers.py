"""TensorFlow 1's ``tf.layers``: layers whose weights are ``get_variable`` variables in the
layer's variable scope (``dense/kernel``, ``dense_1/kernel``, ...), shared by every call of
one layer object (and by the functions with ``reuse=True`` and the same name); regularizers'
losses go to ``REGULARIZATION_LOSSES`` and batch normalization's moving-average updates to
``UPDATE_OPS``, as in TensorFlow 1. This module holds the base ``Layer`` and the core
layers (``Dense``, ``Dropout``, ``Flatten``); batch normalization is in
:mod:`retrograd.compat.tf1_batch_norm`, convolutions and pooling in
:mod:`retrograd.compat.tf1_conv_layers`.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     x = tf1.placeholder(rg.float32, [None, 3])
...     y = dense(x, 2, kernel_initializer=tf1.ones_initializer())
...     print([v.name for v in tf1.trainable_variables()], y.shape.as_list())
['dense/kernel:0', 'dense/bias:0'] [None, 2]
"""

from __future__ import annotations

import math
import re
from typing import Any

from retrograd.compat.graph_collections import add_to_collection
from retrograd.compat.initializers import zeros_initializer
from retrograd.compat.variable_scopes import (
    GraphKeys,
    VariableScope,
    get_variable,
    variable_scope,
)
from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import convert_to_tensor
from retrograd.graph.control_flow import cond
from retrograd.ops import array_ops, linalg_ops, nn_layer_ops

__all__ = [
    "Dense",
    "Dropout",
    "Flatten",
    "InputSpec",
    "Layer",
    "dense",
    "dropout",
    "flatten",
]


class InputSpec:
    """What a layer accepts: ``dtype``, ``shape``, ``ndim``, ``max_ndim``, ``min_ndim`` and
    ``axes`` (axis -> size).

    >>> InputSpec(min_ndim=2, axes={-1: 3}).axes
    {-1: 3}
    """

    def __init__(
        self,
        dtype=None,
        shape=None,
        ndim=None,
        max_ndim=None,
        min_ndim=None,
        axes=None,
        allow_last_axis_squeeze=False,
        name=None,
        optional=False,
    ) -> None:
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze, self.name = allow_last_axis_squeeze, name
        self.optional = optional

    def check(self, shape: TensorShape, layer: str) -> None:
        """A ValueError naming ``layer`` when ``shape`` does not fit."""
        rank = shape.rank
        if rank is None:
            return
        bad = (
            (self.ndim is not None and rank != self.ndim)
            or (self.min_ndim is not None and rank < self.min_ndim)
            or (self.max_ndim is not None and rank > self.max_ndim)
        )
        if bad:
            raise ValueError(
                f"Input 0 of layer {layer} is incompatible with the layer: expected "
                f"ndim={self.ndim}, min_ndim={self.min_ndim}, max_ndim={self.max_ndim}, found "
                f"ndim={rank}. Full shape received: {shape}"
            )
        for axis, size in self.axes.items():
            got = shape.as_list()[axis]
            if size is not None and got is not None and got != size:
                raise ValueError(
                    f"Input 0 of layer {layer} is incompatible with the layer: expected axis "
                    f"{axis} of input shape to have value {size}, but received input with "
                    f"shape {shape}"
                )

    def __repr__(self) -> str:
        return (
            f"InputSpec(dtype={self.dtype}, shape={self.shape}, ndim={self.ndim}, "
            f"max_ndim={self.max_ndim}, min_ndim={self.min_ndim}, axes={self.axes})"
        )


class Layer:
    """Base of TF1's layers: the first call opens the layer's variable scope (its ``name``,
    made unique when not given), builds the weights with ``add_weight`` (``get_variable``
    there) and calls ``call``; later calls reuse the scope and its variables."""

    def __init__(
        self, trainable: bool = True, name: str | None = None, dtype: Any = None, **kwargs: Any
    ) -> None:
        unknown = set(kwargs) - {"_reuse", "_scope", "activity_regularizer", "input_shape"}
        if unknown:
            raise TypeError(f"{type(self).__name__}: unexpected keyword arguments {unknown}")
        self.trainable = trainable
        self._given_name = name
        self._reuse = kwargs.get("_reuse")
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self.input_spec: InputSpec | None = None
        self.built = False
        self._scope: VariableScope | None = None
        self._weights: list[Any] = []
        self._updates: list[Any] = []
        self._losses: list[Any] = []
        self._base_name = _snake(type(self).__name__)
        self._name = name if name else _unique_layer_name(self._base_name)

    @property
    def name(self) -> str:
        """The layer's name: the one given, else its class's, numbered from 1 per graph
        (``dense_1``, ``dense_2``, ...; its variable scope is named apart, from 0)."""
        return self._name

    @property
    def scope_name(self) -> str:
        if self._scope is None:
            raise ValueError(
                f"No name available for layer scope because the layer {self.name!r} has not "
                f"been used yet."
            )
        return self._scope.name

    @property
    def weights(self) -> list[Any]:
        return list(self._weights)

    variables = weights

    @property
    def trainable_weights(self) -> list[Any]:
        return [w for w in self._weights if w.trainable] if self.trainable else []

    trainable_variables = trainable_weights

    @property
    def non_trainable_weights(self) -> list[Any]:
        if not self.trainable:
            return list(self._weights)
        return [w for w in self._weights if not w.trainable]

    non_trainable_variables = non_trainable_weights

    @property
    def updates(self) -> list[Any]:
        return list(self._updates)

    @property
    def losses(self) -> list[Any]:
        return list(self._losses)

    def add_weight(
        self,
        name: str,
        shape: Any = None,
        dtype: Any = None,
        initializer: Any = None,
        regularizer: Any = None,
        trainable: bool | None = None,
        constraint: Any = None,
        **kwargs: Any,
    ) -> Any:
        """A variable of the layer: ``get_variable(name, ...)`` in its scope."""
        trainable = self.trainable if trainable is None else trainable and self.trainable
        collections = None if trainable else [GraphKeys.GLOBAL_VARIABLES]
        variable = get_variable(
            name,
            shape,
            dtype or self.dtype or dtypes.float32,
            initializer,
            regularizer,
            trainable,
            collections,
            constraint=constraint,
        )
        if regularizer is not None and context.graph is not None:
            found = context.graph.get_collection(GraphKeys.REGULARIZATION_LOSSES)
            if found:
                self._losses.append(found[-1])
        if all(variable is not w for w in self._weights):
            self._weights.append(variable)
        return variable

    def add_update(self, update: Any) -> None:
        """An update op of the layer, also put in ``UPDATE_OPS`` (graphs only)."""
        self._updates.append(update)
        if context.graph is not None:
            add_to_collection(GraphKeys.UPDATE_OPS, update)

    def build(self, input_shape: TensorShape) -> None:
        self.built = True

    def call(self, inputs: Any, **kwargs: Any) -> Any:
        return inputs

    def _open_scope(self) -> Any:
        if self._scope is not None:
            return variable_scope(self._scope, reuse=True, auxiliary_name_scope=False)
        if self._given_name is not None:
            return variable_scope(self._given_name, reuse=self._reuse)
        return variable_scope(None, default_name=self._base_name, reuse=self._reuse)

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        inputs = convert_to_tensor(inputs) if not isinstance(inputs, (list, tuple)) else inputs
        with self._open_scope() as scope:
            self._scope = scope
            if not self.built:
                shape = inputs.shape if not isinstance(inputs, (list, tuple)) else None
                if self.input_spec is not None and shape is not None:
                    self.input_spec.check(shape, self.name)
                if self.dtype is None and shape is not None:
                    self.dtype = inputs.dtype
                self.build(shape)
                self.built = True
            elif self.input_spec is not None and not isinstance(inputs, (list, tuple)):
                self.input_spec.check(inputs.shape, self.name)
            outputs = self.call(inputs, *args, **kwargs)
            if self.activity_regularizer is not None:
                loss = self.activity_regularizer(outputs)
                self._losses.append(loss)
                if context.graph is not None:
                    add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return outputs

    def apply(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The same as calling the layer."""
        return self.__call__(inputs, *args, **kwargs)

    def get_config(self) -> dict:
        return {
            "name": self.name,
            "trainable": self.trainable,
            "dtype": getattr(self.dtype, "name", None),
        }


_ZEROS = zeros_initializer()


_EAGER_NAMES: dict[str, int] = {}
_NAMES_KEY = "__tf1_layer_names"  # a graph collection holding that graph's name counts


def _unique_layer_name(base: str) -> str:
    if context.graph is None:
        counts = _EAGER_NAMES
    else:
        holder = context.graph.get_collection_ref(_NAMES_KEY)
        if not holder:
            holder.append({})
        counts = holder[0]
    counts[base] = counts.get(base, 0) + 1
    return f"{base}_{counts[base]}"


def _snake(name: str) -> str:
    """A class name as Keras turns it into a layer name: ``Conv2DTranspose`` ->
    ``conv2d_transpose``."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def _activation(activation: Any, value: Any) -> Any:
    return value if activation is None else activation(value)


class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` over the last axis (``kernel`` of shape
    ``[in, units]``, Glorot-uniform by default, ``bias`` zeros).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> layer = Dense(1, kernel_initializer=tf1.ones_initializer())
    >>> layer(rg.constant([[1.0, 2.0]])).numpy().tolist()
    [[3.0]]
    """

    def __init__(
        self,
        units: int,
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = None,
        bias_initializer: Any = _ZEROS,
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        trainable: bool = True,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(trainable, name, activity_regularizer=activity_regularizer, **kwargs)
        if int(units) <= 0:
            raise ValueError(
                f"Received an invalid value for `units`, expected a positive integer, got {units}."
            )
        self.units, self.activation, self.use_bias = int(units), activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self.kernel = self.bias = None

    def build(self, input_shape: TensorShape) -> None:
        last = input_shape.as_list()[-1]
        if last is None:
            raise ValueError(
                "The last dimension of the inputs to `Dense` should be defined. Found `None`."
            )
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        self.kernel = self.add_weight(
            "kernel", [last, self.units], None, self.kernel_initializer,
            self.kernel_regularizer, True, self.kernel_constraint,
        )  # fmt: skip
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.units], None, self.bias_initializer,
                self.bias_regularizer, True, self.bias_constraint,
            )  # fmt: skip
        self.built = True

    def call(self, inputs: Any) -> Any:
        rank = inputs.shape.rank
        if rank is not None and rank > 2:
            outputs = linalg_ops.tensordot(inputs, self.kernel, [[rank - 1], [0]])
        else:
            outputs = linalg_ops.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = nn_layer_ops.bias_add(outputs, self.bias)
        return _activation(self.activation, outputs)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return TensorShape(TensorShape(input_shape).as_list()[:-1] + [self.units])


def dense(
    inputs,
    units,
    activation=None,
    use_bias=True,
    kernel_initializer=None,
    bias_initializer=_ZEROS,
    kernel_regularizer=None,
    bias_regularizer=None,
    activity_regularizer=None,
    kernel_constraint=None,
    bias_constraint=None,
    trainable=True,
    name=None,
    reuse=None,
):
    """The ``Dense`` layer applied once (``reuse`` with a ``name`` shares its variables).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> dense(rg.constant([[1.0, 2.0]]), 1, kernel_initializer=tf1.ones_initializer(),
    ...       bias_initializer=tf1.constant_initializer(0.5)).numpy().tolist()
    [[3.5]]
    """
    layer = Dense(
        units, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint, trainable,
        name, _reuse=reuse, _scope=name,
    )  # fmt: skip
    return layer(inputs)


class Dropout(Layer):
    """Zeroes a ``rate`` fraction of the inputs (scaling the rest by ``1 / (1 - rate)``)
    when ``training`` (a bool or a boolean tensor); the identity otherwise.

    >>> import retrograd as rg
    >>> Dropout(0.5)(rg.constant([1.0, 2.0])).numpy().tolist()  # training=False
    [1.0, 2.0]
    """

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs) -> None:
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs: Any, training: Any = False) -> Any:
        def dropped() -> Any:
            return nn_layer_ops.dropout(inputs, self.rate, self.noise_shape, self.seed)

        if isinstance(training, bool):
            return dropped() if training else array_ops.identity(inputs)
        return cond(training, dropped, lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return TensorShape(input_shape)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """The ``Dropout`` layer applied once.

    >>> import retrograd as rg
    >>> dropout(rg.constant([1.0, 2.0]), 0.5, training=False).numpy().tolist()
    [1.0, 2.0]
    """
    return Dropout(rate, noise_shape, seed, name)(inputs, training=training)


class Flatten(Layer):
    """Keeps the first axis and flattens the others (``channels_first`` inputs are moved to
    ``channels_last`` order first).

    >>> import retrograd as rg
    >>> Flatten()(rg.ones([2, 3, 4])).shape.as_list()
    [2, 12]
    """

    def __init__(self, data_format="channels_last", name=None, **kwargs) -> None:
        super().__init__(name=name, **kwargs)
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"Flatten: unknown data_format {data_format!r}")
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs: Any) -> Any:
        rank = inputs.shape.rank
        if self.data_format == "channels_first" and rank is not None and rank > 2:
            inputs = array_ops.transpose(inputs, [0, *range(2, rank), 1])
        dims = inputs.shape.as_list()
        rest = dims[1:]
        if all(d is not None for d in rest):
            return array_ops.reshape(inputs, [-1 if dims[0] is None else dims[0], math.prod(rest)])
        return array_ops.reshape(inputs, [array_ops.shape(inputs)[0], -1])

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        rest = dims[1:]
        size = None if any(d is None for d in rest) else math.prod(rest)
        return TensorShape([dims[0], size])


def flatten(inputs, name=None, data_format="channels_last"):
    """The ``Flatten`` layer applied once.

    >>> import retrograd as rg
    >>> flatten(rg.ones([2, 2, 2])).shape.as_list()
    [2, 4]
    """
    return Flatten(data_format, name)(inputs)
