"""``tf.keras.Model`` (functional, from ``Input`` tensors, or subclassed with ``call``) and
``tf.keras.Sequential``; ``summary()``, ``save_weights`` / ``load_weights`` (pickle-free).

>>> import numpy as np, retrograd as rg
>>> inputs = rg.keras.Input((3,))
>>> outputs = rg.keras.layers.Dense(2, kernel_initializer="ones")(inputs)
>>> model = rg.keras.Model(inputs, outputs)
>>> model(np.array([[1.0, 2.0, 3.0]])).numpy()
array([[6., 6.]], dtype=float32)
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.shapes import TensorShape
from retrograd.keras.src import backend, tf_ops, weights_files
from retrograd.keras.src.layers import building
from retrograd.keras.src.layers.base import KerasTensor, Layer, Node
from retrograd.keras.src.layers.input_layer import InputLayer
from retrograd.keras.src.trainer import Trainer

__all__ = ["Model", "Sequential"]


def _topological_nodes(outputs: list[KerasTensor]) -> list[Node]:
    """The layer calls that produce ``outputs``, each after the calls it depends on."""
    order, visited = [], set()
    stack = [(t.node, False) for t in reversed(outputs) if t.node is not None]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in visited:
            continue
        visited.add(id(node))
        stack.append((node, True))
        for t in reversed(node.inputs()):
            if t.node is not None and id(t.node) not in visited:
                stack.append((t.node, False))
    return order


def _layers_by_depth(nodes: list[Node], outputs: list[KerasTensor]) -> list[Layer]:
    """Keras' order of a functional model's layers: by decreasing depth (distance from the
    outputs), ties in the order a depth-first walk from the outputs finishes them; each
    ``Input``'s layer comes just before its first consumer."""
    entries: list[Any] = []
    placed: set[int] = set()
    for node in nodes:
        for t in node.inputs():
            if t.node is None and id(t.input_layer) not in placed:
                placed.add(id(t.input_layer))
                entries.append(t.input_layer)
        entries.append(node)
    for t in outputs:
        if t.node is None and id(t.input_layer) not in placed:
            placed.add(id(t.input_layer))
            entries.append(t.input_layer)
    depth: dict[int, int] = {}
    for node in reversed(nodes):
        below = depth.get(id(node), 0) + 1
        for t in node.inputs():
            producer = t.node if t.node is not None else t.input_layer
            depth[id(producer)] = max(depth.get(id(producer), 0), below)
    ordered = sorted(range(len(entries)), key=lambda i: -depth.get(id(entries[i]), 0))
    layers: list[Layer] = []
    for i in ordered:
        entry = entries[i]
        layer = entry if isinstance(entry, InputLayer) else entry.layer
        if layer not in layers:
            layers.append(layer)
    return layers


class Model(Trainer, Layer):
    """A layer that can be trained: ``Model(inputs, outputs)`` for the functional API, or a
    subclass that defines ``call`` (and creates its layers in ``__init__``).

    >>> import retrograd as rg
    >>> inputs = rg.keras.Input(shape=(2,))
    >>> outputs = rg.keras.layers.Dense(1, kernel_initializer='ones')(inputs)
    >>> model = rg.keras.Model(inputs, outputs)
    >>> model(rg.constant([[1.0, 2.0]])).numpy().tolist(), len(model.trainable_weights)
    ([[3.0]], 2)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        if name is None:
            base = "functional" if inputs is not None else backend.snake_case(type(self).__name__)
            name = backend.unique_name(base)
        Layer.__init__(self, trainable=trainable, name=name, **kwargs)
        self._init_trainer()
        self._functional = inputs is not None
        if self._functional:
            self._init_functional(inputs, outputs)

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset(
        {
            "_loss_tracker",
            "_latest_output_mask",
            "_compile_arguments",
            "_compile_metrics",
            "history",
            "loss",
            "_loss_fn",
            "_nodes",
            "_inputs_struct",
            "_outputs_struct",
            "inputs",
            "outputs",
            "_input_layers",
        }
    )

    def _init_functional(self, inputs: Any, outputs: Any) -> None:
        if outputs is None:
            raise ValueError("Model: `outputs` must be given with `inputs`")
        flat_inputs = nest.flatten(inputs)
        flat_outputs = nest.flatten(outputs)
        for t in flat_inputs + flat_outputs:
            if not isinstance(t, KerasTensor):
                raise TypeError(
                    f"Model: inputs and outputs must be KerasTensors from keras.Input and "
                    f"layer calls, got {t!r}"
                )
        for t in flat_inputs:
            if t.node is not None:
                raise ValueError(f"Model: inputs must come from keras.Input, got {t!r}")
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self.inputs, self.outputs = flat_inputs, flat_outputs
        self._nodes = _topological_nodes(flat_outputs)
        known = {id(t) for t in flat_inputs}
        for node in self._nodes:
            missing = [t for t in node.inputs() if t.node is None and id(t) not in known]
            if missing:
                raise ValueError(
                    f"Model: layer {node.layer.name} depends on an Input not listed in "
                    f"`inputs`: {missing}"
                )
        self._input_layers = [t.input_layer for t in flat_inputs]
        self._ordered_layers = _layers_by_depth(self._nodes, flat_outputs)
        for layer in self._ordered_layers:
            is_layer = isinstance(layer, Layer) and not isinstance(layer, InputLayer)
            if is_layer and layer not in self._sublayers:
                self._sublayers.append(layer)
        self.built = True

    @property
    def layers(self) -> list[Layer]:
        """The model's layers (a functional model's ``InputLayer``s first)."""
        if self._functional:  # (the graph's operations, ops.add and the like, are no layers)
            return [layer for layer in self._ordered_layers if isinstance(layer, Layer)]
        return list(self._sublayers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}"
        )

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if not self._functional:
            raise NotImplementedError(f"Model {self.name}: a subclassed Model must define `call`")
        return self._run_graph(inputs, training)

    def _run_graph(self, inputs: Any, training: Any) -> Any:
        if isinstance(self._inputs_struct, dict) and isinstance(inputs, dict):
            flat = [inputs[k] for k in sorted(self._inputs_struct)]
        else:
            flat = nest.flatten(inputs) if len(self.inputs) > 1 else [inputs]
        if len(flat) != len(self.inputs):
            raise ValueError(
                f"Model {self.name} expects {len(self.inputs)} input(s), got {len(flat)}"
            )
        values, masks = {}, {}  # masks: the timestep masks of tensors that have one
        for symbolic, value in zip(self.inputs, flat):
            layer = symbolic.input_layer
            value = adjust_input_rank(value, list(symbolic.shape), layer.name)
            values[id(symbolic)] = layer._cast_inputs(value)
        for node in self._nodes:
            args, kwargs = nest.map_structure(
                lambda t: values[id(t)] if isinstance(t, KerasTensor) else t,
                (node.args, node.kwargs),
            )
            kwargs = dict(kwargs)
            mask = None
            if not isinstance(node.layer, Layer):  # an operation of keras.ops
                result = node.layer(*args, **kwargs)
            elif len(args) == 1 and _all_symbolic(node.args[0]):
                kwargs.setdefault("training", training)
                mask = nest.map_structure(lambda t: masks.get(id(t)), node.args[0])
                if all(m is None for m in nest.flatten(mask)):
                    mask = None
                result, mask = call_with_mask(node.layer, args[0], mask, kwargs)
            else:
                kwargs.setdefault("training", training)
                kwargs.update(_argument_masks(node, masks))
                result = node.layer(*args, **kwargs)
            outputs = nest.flatten(node.outputs)
            out_masks = mask if isinstance(mask, list) else [mask] * len(outputs)
            for symbolic, value, out_mask in zip(outputs, nest.flatten(result), out_masks):
                values[id(symbolic)] = value
                if out_mask is not None:
                    masks[id(symbolic)] = out_mask
        result = nest.map_structure(lambda t: values[id(t)], self._outputs_struct)
        if len(self.outputs) == 1:
            self._keep_output_mask(result, masks.get(id(self.outputs[0])))
        return result

    def _keep_output_mask(self, outputs: Any, mask: Any) -> None:
        """Remembers the timestep mask of the latest outputs (Keras attaches it to the
        tensor), for the loss and metrics of ``train_step`` (a weak reference)."""
        if mask is None or not hasattr(outputs, "__weakref__"):
            self._latest_output_mask = None
        else:
            self._latest_output_mask = (weakref.ref(outputs), mask)

    @building.default_build
    def build(self, input_shape: Any) -> None:
        """Marks a subclassed model built, as Keras 3's default ``build``: no weights are
        made (its layers make theirs on the first call), with Keras' warning when some layer
        is not built yet. Loading a saved model builds it by running it
        (:meth:`build_by_running`)."""
        if not self._functional and input_shape is not None:
            self._build_shape = input_shape  # what saving records to build the model again
        building.warn_unbuilt_state(self)
        self.built = True

    def build_by_running(self, input_shape: Any) -> None:
        """Creates the weights of a subclassed model by calling it once on zeros (a list or
        dict of shapes for several inputs): what Keras' ``build_from_config`` does for a
        model without its own ``build``."""
        if self._functional or input_shape is None:
            self.built = True
            return

        def zeros(shape: Any) -> Any:
            return tf_ops.zeros([1 if d is None else d for d in shape], dtype=self.compute_dtype)

        self.built = True
        self._build_shape = input_shape  # what saving records to build the model again
        several = (
            isinstance(input_shape, (list, tuple))
            and input_shape
            and isinstance(input_shape[0], (list, tuple))
        )
        if isinstance(input_shape, dict):  # several inputs by name
            self({k: zeros(v) for k, v in input_shape.items()}, training=False)
        elif several:
            self([zeros(s) for s in input_shape], training=False)
        else:
            self(zeros(input_shape), training=False)

    # -- summary -------------------------------------------------------------------------
    def to_json(self, **kwargs: Any) -> str:
        """The architecture as JSON (``keras.models.model_from_json`` rebuilds it).

        >>> import retrograd as rg
        >>> model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
        >>> '"class_name": "Sequential"' in model.to_json()
        True
        """
        import json

        from retrograd.keras.src.saving import serialize_model

        return json.dumps(serialize_model(self), **kwargs)

    def summary(
        self,
        line_length=None,
        positions=None,
        print_fn: Callable | None = None,
        expand_nested=False,
        show_trainable=False,
        layer_range=None,
    ) -> None:
        """Prints the layers, their output shapes and parameter counts (Keras' table)."""
        print_fn = print_fn or print
        widths = [33, 24, 15]
        rule = lambda left, mid, right, ch: left + mid.join(ch * w for w in widths) + right  # noqa

        def row(cells: list[str], bar: str = "│") -> str:
            padded = [
                f" {c:<{w - 2}} " if i < 2 else f" {c:>{w - 2}} "
                for i, (c, w) in enumerate(zip(cells, widths))
            ]
            return bar + bar.join(padded) + bar

        lines = [
            f'Model: "{self.name}"',
            rule("┏", "┳", "┓", "━"),
            row(["Layer (type)", "Output Shape", "Param #"], "┃"),
            rule("┡", "╇", "┩", "━"),
        ]
        layers = [layer for layer in self.layers if not isinstance(layer, InputLayer)]
        if self._functional:
            layers = list(self._ordered_layers)
        for i, layer in enumerate(layers):
            shape = getattr(layer, "_last_output_shape", None)
            if isinstance(layer, InputLayer):
                shape = layer.batch_shape
            text = "?" if shape is None else str(tuple(shape)).replace(",)", ")")
            lines.append(
                row(
                    [
                        f"{layer.name} ({type(layer).__name__})",
                        text,
                        _params_cell(layer),
                    ]
                )
            )
            if i < len(layers) - 1:
                lines.append(rule("├", "┼", "┤", "─"))
        lines.append(rule("└", "┴", "┘", "─"))
        trainable = sum(int(np.prod(w._value.shape)) for w in self.trainable_weights)
        trainable_bytes = sum(w._value.nbytes for w in self.trainable_weights)
        frozen = sum(int(np.prod(w._value.shape)) for w in self.non_trainable_weights)
        frozen_bytes = sum(w._value.nbytes for w in self.non_trainable_weights)
        optimizer_vars = self.optimizer.variables if self.optimizer is not None else []
        optimizer_count = sum(int(np.prod(v._value.shape)) for v in optimizer_vars)
        optimizer_bytes = sum(v._value.nbytes for v in optimizer_vars)
        total = trainable + frozen + optimizer_count
        total_bytes = trainable_bytes + frozen_bytes + optimizer_bytes
        lines.append(f" Total params: {total} ({_size(total_bytes)})")
        lines.append(f" Trainable params: {trainable} ({_size(trainable_bytes)})")
        lines.append(f" Non-trainable params: {frozen} ({_size(frozen_bytes)})")
        if optimizer_count:
            lines.append(f" Optimizer params: {optimizer_count} ({_size(optimizer_bytes)})")
        for line in lines:
            print_fn(line)

    # -- weights on disk -----------------------------------------------------------------
    def save(self, filepath: str, overwrite: bool = True, zipped: Any = None) -> None:
        """Saves the whole model (architecture, weights, compile arguments, optimizer state)
        to a ``.keras`` file; :func:`keras.models.load_model` reads it back (see
        keras/src/saving.py for the format)."""
        from retrograd.keras.src import saving

        if zipped is False:
            raise ValueError("Model.save: retrograd writes zipped .keras files only")
        saving.save_model(self, filepath, overwrite=overwrite)

    def save_weights(self, filepath: str, overwrite: bool = True) -> None:
        """Writes every weight, in ``weights`` order, to ``filepath`` (``*.weights.h5``;
        see keras/src/weights_files.py)."""
        weights_files.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath: str, skip_mismatch: bool = False) -> None:
        """Reads weights written by ``save_weights`` (or a ``.keras`` file's) into this model
        (same architecture), all or nothing."""
        weights_files.load_weights(self, filepath, skip_mismatch)


def adjust_input_rank(value: Any, expected: list, name: str) -> Any:
    """``value`` fitted to an input of shape ``expected`` as Keras does: a rank one higher
    whose last dimension is 1 is squeezed, a rank one lower where ``expected`` ends in 1 is
    expanded; another rank is a ValueError (a (3,) array for an input of (None, 3) was
    silently taken as one sample)."""
    if getattr(getattr(value, "_value", None), "ndim", None) == len(expected):
        return value  # (a tensor of the expected rank: the common call, decided at once)
    shape = getattr(value, "shape", None)
    if shape is None and not isinstance(value, (list, tuple)):
        return value  # (None, dicts, scalars: checked where they are used)
    try:
        shape = TensorShape(np.shape(value) if shape is None else shape)
    except (TypeError, ValueError):
        return value  # (ragged Python lists: converting them reports the problem)
    if shape.rank is None:
        return value
    dims = shape.as_list()
    if len(dims) == len(expected):
        return value
    if len(dims) == len(expected) + 1 and dims[-1] == 1:
        return tf_ops.squeeze(value, axis=-1)
    if len(dims) == len(expected) - 1 and expected[-1] == 1:
        return tf_ops.expand_dims(value, axis=-1)
    raise ValueError(
        f"Invalid input shape for input {value!r} with name '{name}'. Expected shape "
        f"{tuple(expected)}, but input has incompatible shape {tuple(dims)}"
    )


def _all_symbolic(value: Any) -> bool:
    leaves = nest.flatten(value)
    return bool(leaves) and all(isinstance(t, KerasTensor) for t in leaves)


def _argument_masks(node: Node, masks: dict) -> dict:
    """Keras' masks for a call of several tensors: ``<name>_mask`` for each tensor argument
    ``<name>`` that has a mask, where ``call`` takes it and it was not given
    (MultiHeadAttention's ``query_mask``, ``value_mask``)."""
    try:
        parameters = inspect.signature(node.layer.call).parameters
        bound = inspect.signature(node.layer.call).bind_partial(*node.args, **node.kwargs)
    except TypeError:
        return {}
    found = {}
    for name, value in bound.arguments.items():
        key = f"{name}_mask"
        if isinstance(value, KerasTensor) and key in parameters and key not in bound.arguments:
            mask = masks.get(id(value))
            if mask is not None:
                found[key] = mask
    return found


def call_with_mask(layer: Layer, x: Any, mask: Any, kwargs: dict) -> tuple[Any, Any]:
    """Calls ``layer`` on ``x``, passing ``mask`` where its ``call`` takes one; returns the
    outputs and their mask (``layer.compute_mask``), as Keras propagates masks."""
    if mask is not None and layer._accepts("mask"):
        kwargs = {**kwargs, "mask": mask}
    outputs = layer(x, **kwargs)
    return outputs, layer.compute_mask(x, mask)


def _params_cell(layer: Any) -> str:
    """A summary row's parameter count (Keras': "0 (unbuilt)" for a layer not built yet)."""
    if not isinstance(layer, Layer):
        return "0"
    return f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"


def _size(nbytes: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if nbytes < 1024 or unit == "GB":
            return f"{nbytes:.2f} {unit}"
        nbytes /= 1024
    return f"{nbytes:.2f} GB"


class Sequential(Model):
    """A stack of layers, each called on the previous one's output.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(3), rg.keras.layers.Dense(1)])
    >>> model(rg.zeros([2, 4])).shape.as_list(), len(model.layers)
    ([2, 1], 2)
    """

    def __init__(self, layers: list | None = None, trainable: bool = True, name=None):
        super().__init__(name=name or backend.unique_name("sequential"), trainable=trainable)
        self._input_batch_shape = None
        self._input_dtype = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer: Any) -> None:
        if isinstance(layer, KerasTensor) and getattr(layer, "input_layer", None) is not None:
            layer = layer.input_layer
        if isinstance(layer, InputLayer):
            if self._sublayers:
                raise ValueError("Sequential: an Input must come first")
            self._input_batch_shape = layer.batch_shape
            self._input_dtype = layer.output.dtype
            return
        if not isinstance(layer, Layer):
            raise TypeError(
                f"Only instances of `keras.Layer` can be added to a Sequential model. "
                f"Received: {layer!r}"
            )
        if not self._sublayers and layer._input_shape_arg is not None:
            self._input_batch_shape = (None, *layer._input_shape_arg)
        self._sublayers.append(layer)
        if self._input_batch_shape is not None:
            self._build_symbolic()

    def pop(self) -> Layer:
        if not self._sublayers:
            raise TypeError("There are no layers in the model.")
        return self._sublayers.pop()

    def _checkpoint_children(self) -> dict[str, Any]:
        return {**super()._checkpoint_children(), "layers": list(self._sublayers)}

    def _build_symbolic(self) -> None:
        from retrograd.keras.src.layers.input_layer import Input

        x = Input(batch_shape=self._input_batch_shape, dtype=self._input_dtype)
        with self._name_scope:  # Keras builds the layers inside the model's scope
            for layer in self._sublayers:
                x = layer(x)
        self.built = True

    def build(self, input_shape: Any = None) -> None:
        if input_shape is not None:
            self._input_batch_shape = tuple(input_shape)
        if self._input_batch_shape is None:
            raise ValueError("Sequential.build: the input shape is unknown")
        self._build_symbolic()

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = inputs
        if self._input_batch_shape is not None:
            x = adjust_input_rank(x, list(self._input_batch_shape), self.name)
        for layer in self._sublayers:
            x, mask = call_with_mask(layer, x, mask, {"training": training})
        self._keep_output_mask(x, mask)
        return x

    def _maybe_build(self, args: tuple, kwargs: dict) -> None:
        self.built = True
