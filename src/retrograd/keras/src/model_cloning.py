"""``keras.models.clone_model`` (the same architecture with new layers and fresh weights)
and ``model_from_json`` (a model from ``Model.to_json``).

>>> import retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.Input((3,)), rg.keras.layers.Dense(2)])
>>> copy = rg.keras.models.clone_model(model)
>>> copy.layers[0] is model.layers[0], copy(rg.ones([1, 3])).shape.as_list()
(False, [1, 2])
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.keras.src.keras_tensor import KerasTensor
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.input_layer import Input, InputLayer
from retrograd.keras.src.models import Model, Sequential
from retrograd.keras.src.saving import deserialize_model

__all__ = ["clone_model", "model_from_json"]


def _clone_layer(layer: Layer) -> Layer:
    return type(layer).from_config(layer.get_config())


def clone_model(model: Model, input_tensors: Any = None, clone_function: Callable | None = None,
                call_function: Callable | None = None, recursive: bool = False,
                **kwargs: Any) -> Model:  # fmt: skip
    """A new model of the same architecture: each layer rebuilt by ``clone_function``
    (``from_config(get_config())`` by default, so fresh weights); a functional model's
    graph is called again (on ``input_tensors`` when given, through ``call_function(layer,
    *args, **kwargs)`` when given); ``recursive`` clones nested models too.

    >>> import retrograd as rg
    >>> inp = rg.keras.Input((2,))
    >>> model = rg.keras.Model(inp, rg.keras.layers.Dense(1)(inp) * 2.0)
    >>> rg.keras.models.clone_model(model)(rg.ones([1, 2])).shape.as_list()
    [1, 1]
    """
    if kwargs:
        raise ValueError(f"Unexpected keyword arguments: {sorted(kwargs)}")
    clone = clone_function or _clone_layer

    def clone_layer(layer: Any) -> Any:
        if recursive and isinstance(layer, Model) and _rebuildable(layer):
            return clone_model(layer, None, clone_function, call_function, True)
        return clone(layer)

    if isinstance(model, Sequential):
        layers = [clone_layer(layer) for layer in model.layers]
        new = Sequential(name=model.name, trainable=model.trainable)
        if input_tensors is not None:
            new.add(InputLayer(input_tensor=nest.flatten(input_tensors)[0]))
        elif getattr(model, "_input_batch_shape", None) is not None:
            new.add(InputLayer(batch_shape=model._input_batch_shape, dtype=model._input_dtype))
        for layer in layers:
            new.add(layer)
        return new
    if not getattr(model, "_functional", False):
        if clone_function is not None:
            return clone_function(model)
        return type(model).from_config(model.get_config())
    return _clone_functional(model, input_tensors, clone_layer, call_function)


def _rebuildable(model: Model) -> bool:
    return isinstance(model, Sequential) or getattr(model, "_functional", False)


def _clone_functional(model: Model, input_tensors: Any, clone_layer: Callable,
                      call_function: Callable | None) -> Model:  # fmt: skip
    new_inputs = (
        [Input(batch_shape=tuple(t.shape), dtype=t.dtype, name=t.input_layer.name)
         for t in model.inputs]
        if input_tensors is None
        else list(nest.flatten(input_tensors))
    )  # fmt: skip
    if len(new_inputs) != len(model.inputs):
        raise ValueError(
            f"clone_model: the model has {len(model.inputs)} inputs, "
            f"input_tensors gives {len(new_inputs)}"
        )
    mapped = {id(old): new for old, new in zip(model.inputs, new_inputs)}
    clones: dict[int, Any] = {}
    for node in model._nodes:
        args, kwargs = nest.map_structure(
            lambda v: mapped[id(v)] if isinstance(v, KerasTensor) else v, (node.args, node.kwargs)
        )
        target = node.layer
        if isinstance(target, Layer):
            if id(target) not in clones:
                clones[id(target)] = clone_layer(target)
            target = clones[id(target)]
            if call_function is not None:
                result = call_function(target, *args, **kwargs)
            else:
                result = target(*args, **kwargs)
        else:  # an operation of keras.ops
            result = target(*args, **kwargs)
        for old, new in zip(nest.flatten(node.outputs), nest.flatten(result)):
            mapped[id(old)] = new
    inputs = nest.pack_sequence_as(model._inputs_struct, new_inputs)
    outputs = nest.map_structure(lambda t: mapped[id(t)], model._outputs_struct)
    return Model(inputs, outputs, name=model.name, trainable=model.trainable)


def model_from_json(json_string: str, custom_objects: dict | None = None) -> Model:
    """The model ``model.to_json()`` describes (new weights).

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.Input((3,)), rg.keras.layers.Dense(2)])
    >>> rg.keras.models.model_from_json(model.to_json())(rg.ones([1, 3])).shape.as_list()
    [1, 2]
    """
    return deserialize_model(json.loads(json_string), custom_objects)
