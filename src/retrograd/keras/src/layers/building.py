"""How a layer is built on its first call, as Keras 3 does it: the tensor arguments of
``call`` are found by binding the call to its signature; a ``build`` of one argument gets the
shape of the first, a ``build`` of several gets each by name (``build(self, x_shape,
y_shape)`` for ``call(self, x, y)``), and a layer without its own ``build`` is built by
running ``call`` (its sublayers build themselves).

>>> import retrograd as rg
>>> class Pair(rg.keras.layers.Layer):
...     def build(self, t_shape, y_shape):
...         self.w = self.add_weight(shape=(t_shape[-1], y_shape[-1]), initializer="ones")
...     def call(self, t, y):
...         return rg.matmul(t, self.w) + y
>>> Pair()(rg.ones([1, 2]), rg.ones([1, 3])).numpy().tolist()
[[3.0, 3.0, 3.0]]
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.keras.src.keras_tensor import KerasTensor

__all__ = ["default_build", "is_default_build", "shape_of", "call_shapes", "build_on_call"]

_NOT_SHAPES = ("mask", "training", "kwargs", "args")


def default_build(build: Callable) -> Callable:
    """Marks ``build`` as a base class's own (a layer that keeps it is built by its call)."""
    build._keras_default_build = True
    return build


def warn_unbuilt_state(layer: Any) -> None:
    """Keras' warning for a default ``build()`` called on a layer with layers not yet built
    (it is marked built all the same; they make their weights on the first call)."""
    if is_default_build(layer) and any(not sub.built for sub in layer._sublayers):
        warnings.warn(
            f"`build()` was called on layer '{layer.name}', however the layer does not have "
            "a `build()` method implemented and it looks like it has unbuilt state. This will "
            "cause the layer to be marked as built, despite not being actually built, which "
            "may cause failures down the line. Make sure to implement a proper `build()` "
            "method.",
            UserWarning,
            stacklevel=3,
        )


def is_default_build(layer: Any) -> bool:
    return getattr(type(layer).build, "_keras_default_build", False)


def _is_tensor(value: Any) -> bool:
    return isinstance(value, (Tensor, Variable, KerasTensor, np.ndarray))


def shape_of(value: Any) -> Any:
    """The shape of a tensor as a tuple (of each, for a list of tensors)."""
    if isinstance(value, (list, tuple)):
        return [shape_of(v) for v in value]
    if isinstance(value, dict):
        return {k: shape_of(v) for k, v in value.items()}
    if isinstance(value, KerasTensor):
        return tuple(value.shape)
    return tuple(TensorShape(value.shape).as_list())


def call_shapes(layer: Any, args: tuple, kwargs: dict) -> dict[str, Any]:
    """``{name: shape}`` of the tensor arguments of ``layer.call``, in signature order."""
    try:
        bound = inspect.signature(layer.call).bind_partial(*args, **kwargs)
    except TypeError:
        return {"inputs": shape_of(args[0])} if args else {}
    shapes = {}
    for name, value in bound.arguments.items():
        if name in _NOT_SHAPES or value is None:
            continue
        leaves = nest.flatten(value) if nest.is_nested(value) else [value]
        if leaves and all(_is_tensor(v) for v in leaves):
            shapes[name] = shape_of(value)
    return shapes


def build_on_call(layer: Any, args: tuple, kwargs: dict) -> None:
    """Builds ``layer`` for a call on ``args``/``kwargs`` (see the module docstring)."""
    shapes = call_shapes(layer, args, kwargs)
    first = next(iter(shapes.values()), None)
    layer._build_shape = first
    if is_default_build(layer):  # built by running `call` (Keras marks it built)
        layer.built = True
        return
    parameters = [
        p
        for p in inspect.signature(layer.build).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    if not parameters:
        layer.build()
        return
    if len(parameters) == 1:
        layer.build(first)
        return
    given = {}
    for p in parameters:
        if not p.name.endswith("_shape") or p.name[: -len("_shape")] not in shapes:
            if p.default is not p.empty:
                continue
            raise ValueError(
                "For a `build()` method with more than one argument, all arguments should "
                "have a `_shape` suffix and match an argument from `call()`. E.g. "
                f"`build(self, foo_shape, bar_shape)`  For layer '{type(layer).__name__}', "
                f"Received `build()` argument `{p.name}`, which does not end in `_shape`."
            )
        given[p.name] = shapes[p.name[: -len("_shape")]]
    layer.build(**given)
