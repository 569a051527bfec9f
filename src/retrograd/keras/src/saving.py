"""``model.save("m.keras")`` and ``keras.models.load_model``: a whole model in one file.

A ``.keras`` file here is a zip archive, as Keras 3's, holding:

- ``metadata.json``: the format (``retrograd-keras/1``), the Keras version it follows and
  the date;
- ``config.json``: the model's architecture (Sequential, functional, or a subclassed or
  custom class rebuilt from its ``get_config()``), its build shape and its compile
  arguments (optimizer, loss, metrics);
- ``model.weights.npz``: the weights and the optimizer's state, as a retrograd checkpoint of
  ``{model, optimizer}`` (retrograd.training.storage: NumPy arrays with a JSON index, read
  without pickle). Keras keeps its weights in HDF5 (``model.weights.h5``); retrograd does
  not read or write HDF5, so its files and Keras' are not interchangeable.

The file is written atomically (temporary file, fsync, rename). Loading builds nothing from
code: classes come from Keras' own, the registered ones and ``custom_objects``; a file that
is not a zip, is corrupt, or was written by Keras is a ValueError that says so.

>>> import os, tempfile, retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> model.save(path)
>>> again = rg.keras.models.load_model(path)
>>> x = rg.ones([1, 2])
>>> bool((again(x) == model(x)).numpy().all())
True
"""

from __future__ import annotations

import datetime
import inspect
import io
import json
import os
import tempfile
import zipfile
from typing import Any

from retrograd.core import nest
from retrograd.core.atomic_files import remove_stale_temporaries, write_atomically
from retrograd.keras.src import load_limits, serialization
from retrograd.keras.src.keras_file import CONFIG, METADATA, WEIGHTS, declared_bytes, opened
from retrograd.keras.src.layers.base import KerasTensor, Layer
from retrograd.keras.src.layers.building import is_default_build
from retrograd.keras.src.layers.input_layer import InputLayer
from retrograd.keras.src.models import Model, Sequential
from retrograd.training import checkpoint as checkpoint_module
from retrograd.training import optimizers as optimizers_module
from retrograd.training.checkpoint import Checkpoint
from retrograd.training.storage import ArrayFile

__all__ = ["save_model", "load_model", "load_weights_of"]

FORMAT = "retrograd-keras/1"
KERAS_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = CONFIG, METADATA, WEIGHTS
_TENSOR = "__keras_tensor__"


# -- architecture ------------------------------------------------------------------------------


def _layer_entry(layer: Layer) -> dict:
    entry = serialization.serialize_keras_object(layer)
    entry["build_config"] = _build_config(layer)
    return entry


def _build_config(layer: Layer) -> dict | None:
    shape = getattr(layer, "_build_shape", None)
    return None if shape is None else {"input_shape": serialization.serialize_keras_object(shape)}


def serialize_model(model: Model) -> dict:
    """The model's architecture as a JSON-ready dict (see the module docstring)."""
    if type(model) is Sequential:
        layers = [_layer_entry(layer) for layer in model._sublayers]
        config = {"name": model.name, "trainable": model.trainable, "layers": layers}
        if model._input_batch_shape is not None:
            config["build_input_shape"] = list(model._input_batch_shape)
            config["input_dtype"] = model._input_dtype
        return {"module": "keras", "class_name": "Sequential", "config": config}
    if type(model) is Model and model._functional:
        return {"module": "keras", "class_name": "Functional", "config": _functional(model)}
    entry = serialization.serialize_keras_object(model)
    entry["build_config"] = _build_config(model)
    return entry


def _functional(model: Model) -> dict:
    """Layers by name, the calls in the order they run (each argument either a value or a
    reference [layer, call, output] to a tensor), and the input and output tensors."""
    names: dict[int, str] = {}
    layers = []
    for layer in model.layers:
        if id(layer) in names:
            continue
        if layer.name in names.values():
            raise ValueError(f"Model {model.name}: two layers are named {layer.name!r}")
        names[id(layer)] = layer.name
        layers.append(_layer_entry(layer))
    calls: dict[int, int] = {}
    where: dict[int, list] = {}
    for t in model.inputs:
        where[id(t)] = [t.input_layer.name, 0, 0]
    nodes = []
    for node in model._nodes:
        index = calls.get(id(node.layer), 0)
        calls[id(node.layer)] = index + 1

        def ref(value: Any) -> Any:
            if isinstance(value, KerasTensor):
                if id(value) not in where:  # an Input tensor not among the model's inputs
                    where[id(value)] = [value.input_layer.name, 0, 0]
                return {_TENSOR: where[id(value)]}
            return serialization.serialize_keras_object(value)

        args, kwargs = nest.map_structure(ref, (list(node.args), dict(node.kwargs)))
        nodes.append({"layer": node.layer.name, "args": args, "kwargs": kwargs})
        for i, out in enumerate(nest.flatten(node.outputs)):
            where[id(out)] = [node.layer.name, index, i]

    def structure(value: Any) -> Any:
        return nest.map_structure(lambda t: {_TENSOR: where[id(t)]}, value)

    return {
        "name": model.name,
        "trainable": model.trainable,
        "layers": layers,
        "nodes": nodes,
        "inputs": structure(model._inputs_struct),
        "outputs": structure(model._outputs_struct),
    }


def _rebuild_layer(entry: dict, custom_objects: dict | None) -> Layer:
    layer = serialization.deserialize_keras_object(
        {k: v for k, v in entry.items() if k != "build_config"}, custom_objects
    )
    if not isinstance(layer, Layer):
        raise ValueError(f"load_model: {entry.get('class_name')!r} is not a Keras layer")
    return layer


def deserialize_model(entry: dict, custom_objects: dict | None = None) -> Model:
    """The model :func:`serialize_model` describes, built, with fresh weights."""
    kind, config = entry.get("class_name"), entry.get("config") or {}
    if kind == "Sequential" and entry.get("module") == "keras":
        model = Sequential(name=config.get("name"), trainable=config.get("trainable", True))
        shape = config.get("build_input_shape")
        if shape is not None:
            model.add(InputLayer(batch_shape=tuple(shape), dtype=config.get("input_dtype")))
        for layer_entry in config.get("layers", []):
            model.add(_rebuild_layer(layer_entry, custom_objects))
        return model
    if kind == "Functional" and entry.get("module") == "keras":
        return _rebuild_functional(config, custom_objects)
    model = _rebuild_layer(entry, custom_objects)
    build = entry.get("build_config") or {}
    if not model.built and build.get("input_shape") is not None:
        shape = _shape(build["input_shape"])  # (Keras' build_from_config: run a default build)
        if is_default_build(model):
            model.build_by_running(shape)
        else:
            model.build(shape)
    return model


def _shape(value: Any) -> Any:
    if isinstance(value, list) and value and isinstance(value[0], list):
        return [_shape(v) for v in value]
    return tuple(value)


def _rebuild_functional(config: dict, custom_objects: dict | None) -> Model:
    layers = {e["config"]["name"]: _rebuild_layer(e, custom_objects) for e in config["layers"]}
    outputs: dict[tuple, KerasTensor] = {}
    for name, layer in layers.items():
        if isinstance(layer, InputLayer):
            outputs[(name, 0, 0)] = layer.output
    calls: dict[str, int] = {}

    def resolve(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {_TENSOR}:
            key = tuple(value[_TENSOR])
            if key not in outputs:
                raise ValueError(f"load_model: the saved graph refers to a missing tensor {key}")
            return outputs[key]
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value

    for node in config["nodes"]:
        layer = layers[node["layer"]]
        args, kwargs = resolve(node["args"]), resolve(node["kwargs"])
        result = layer(*args, **kwargs)
        index = calls.get(node["layer"], 0)
        calls[node["layer"]] = index + 1
        for i, out in enumerate(nest.flatten(result)):
            outputs[(node["layer"], index, i)] = out
    return Model(
        resolve(config["inputs"]),
        resolve(config["outputs"]),
        name=config.get("name"),
        trainable=config.get("trainable", True),
    )


# -- compile arguments ---------------------------------------------------------------------------


def _optimizer_config(optimizer: Any) -> dict:
    """An optimizer's constructor arguments, read from its attributes of the same names."""
    cls = type(optimizer)
    config = {}
    for name in inspect.signature(cls.__init__).parameters:
        if name != "self" and hasattr(optimizer, name):
            config[name] = serialization.serialize_keras_object(getattr(optimizer, name))
    return {
        "module": "keras.optimizers",
        "class_name": cls.__name__,
        "config": config,
        "registered_name": serialization.registered_name_of(cls),
    }


def _compile_config(model: Model) -> dict | None:
    given = getattr(model, "_compile_arguments", None)
    if not getattr(model, "compiled", False) or given is None:
        return None
    optimizer = model.optimizer
    return {
        "optimizer": None if optimizer is None else _optimizer_config(optimizer),
        "loss": serialization.serialize_keras_object(given["loss"]),
        "loss_weights": serialization.serialize_keras_object(given.get("loss_weights")),
        "metrics": serialization.serialize_keras_object(given["metrics"]),
        "weighted_metrics": serialization.serialize_keras_object(given.get("weighted_metrics")),
    }


def _compile(model: Model, config: dict, custom_objects: dict | None) -> None:
    optimizer = config.get("optimizer")
    if optimizer is not None:
        cls = serialization.find_class(optimizer, custom_objects, "optimizer")
        if not (inspect.isclass(cls) and issubclass(cls, optimizers_module.Optimizer)):
            raise ValueError(f"load_model: {optimizer['class_name']!r} is not an optimizer")
        arguments = {
            k: serialization.deserialize_keras_object(v, custom_objects)
            if serialization.is_serialized_object(v)
            else v
            for k, v in optimizer["config"].items()
        }
        optimizer = cls(**arguments)
    model.compile(
        optimizer=optimizer,
        loss=_loss(config.get("loss"), custom_objects),
        loss_weights=config.get("loss_weights"),
        metrics=_loss(config.get("metrics"), custom_objects),
        weighted_metrics=_loss(config.get("weighted_metrics"), custom_objects),
    )


def _loss(value: Any, custom_objects: dict | None) -> Any:
    """Loss and metric arguments: names stay names (compile resolves them), objects and
    registered functions are rebuilt."""
    if isinstance(value, list):
        return [_loss(v, custom_objects) for v in value]
    if isinstance(value, dict) and not serialization.is_serialized_object(value):
        return {k: _loss(v, custom_objects) for k, v in value.items()}
    if isinstance(value, dict):
        return serialization.deserialize_keras_object(value, custom_objects)
    return value


# -- the file -----------------------------------------------------------------------------------


def save_model(
    model: Model, filepath: Any, overwrite: bool = True, zipped: Any = None, **kwargs: Any
) -> None:
    """Writes ``model`` (architecture, weights, compile arguments and optimizer state) to a
    ``.keras`` file, atomically (see the module docstring).

    >>> import os, tempfile, retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.Input((3,)), rg.keras.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "dense.keras")
    >>> rg.keras.saving.save_model(model, path)
    >>> sorted(__import__("zipfile").ZipFile(path).namelist())
    ['config.json', 'metadata.json', 'model.weights.npz']
    """
    kwargs.pop("include_optimizer", True)  # (Keras 3 reads and ignores it too)
    if kwargs.pop("save_format", False) and not str(filepath).endswith((".keras", ".h5")):
        raise ValueError(
            "The `save_format` argument is deprecated in Keras 3. Please remove this argument "
            "and pass a file path with either `.keras` or `.h5` extension."
        )
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    if zipped is False:
        raise ValueError(
            "save_model: zipped=False (an unzipped model directory) is not supported; "
            "retrograd writes zipped .keras files"
        )
    filepath = os.fspath(filepath)
    if not isinstance(model, Model):
        raise TypeError(f"save_model: expected a keras Model, got {model!r}")
    if filepath.endswith((".h5", ".hdf5")):
        raise ValueError(
            f"save_model: {filepath!r}: the legacy HDF5 format is not supported by retrograd "
            "(it would need h5py); save to a '.keras' file"
        )
    if not filepath.endswith(".keras"):
        raise ValueError(
            f"Invalid filepath extension for saving. Please add a `.keras` extension to the "
            f"filepath. Received: filepath={filepath}"
        )
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_model: {filepath!r} exists and overwrite=False")
    config = serialize_model(model)
    config["compile_config"] = _compile_config(model)
    metadata = {
        "format": FORMAT,
        "keras_version": KERAS_VERSION,
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
    }
    with tempfile.TemporaryDirectory() as folder:
        objects = {"model": model}
        if getattr(model, "optimizer", None) is not None:
            objects["optimizer"] = model.optimizer
        weights = Checkpoint(**objects).write(os.path.join(folder, "weights"))
        with open(weights + ".npz", "rb") as stream:
            weight_bytes = stream.read()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(_METADATA, json.dumps(metadata, indent=2))
        archive.writestr(_CONFIG, json.dumps(config, indent=2))
        archive.writestr(_WEIGHTS, weight_bytes)
    folder = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(folder, exist_ok=True)
    remove_stale_temporaries(folder)  # left by saves killed earlier
    write_atomically(filepath, lambda stream: stream.write(buffer.getvalue()), True)


def _rebuilt(config: dict, custom_objects: dict | None, stored: ArrayFile, label: str) -> Model:
    """The model the config describes, built within the load limits (see load_limits); a
    malformed config is a ValueError naming the file, whatever Python raised (a TypeError
    stays one)."""
    try:
        with load_limits.limits(declared_bytes(stored), label):
            return deserialize_model(config, custom_objects)
    except (ValueError, TypeError) as error:
        if str(error).startswith("load_model: " + label):
            raise
        raise type(error)(f"load_model: {label}: {error}") from None
    except (KeyError, AttributeError, IndexError, RecursionError, OverflowError) as error:
        raise ValueError(
            f"load_model: {label} holds a malformed model config ({type(error).__name__}: {error})"
        ) from None


def load_model(
    filepath: Any, custom_objects: dict | None = None, compile: bool = True, safe_mode: bool = True
) -> Model:
    """The model saved in a ``.keras`` file by :func:`save_model`: rebuilt from its config
    (custom classes from ``custom_objects`` or the registry), its weights restored, and,
    with ``compile``, compiled as it was, the optimizer continuing where it stopped.
    ``safe_mode`` is accepted for Keras' signature: retrograd never loads code.

    Nothing is trusted: JSON members are read up to a size limit, the weights in place
    (never inflated), the model is built within limits on what it allocates (see
    keras/src/load_limits.py), and every weight is checked before any is read. A file that
    is not one retrograd wrote, or is corrupt or crafted, is a ValueError naming it.

    >>> import os, tempfile, retrograd as rg
    >>> inputs = rg.keras.Input((3,))
    >>> model = rg.keras.Model(inputs, rg.keras.layers.Dense(2, name="out")(inputs))
    >>> path = os.path.join(tempfile.mkdtemp(), "functional.keras")
    >>> model.save(path)
    >>> [layer.name for layer in rg.keras.models.load_model(path).layers][1:]
    ['out']
    """
    filepath = os.fspath(filepath)
    if filepath.endswith((".h5", ".hdf5")):
        raise ValueError(
            f"load_model: {filepath!r}: the legacy HDF5 format is not supported by retrograd"
        )
    label = repr(filepath)
    with opened(filepath, FORMAT) as (_, config, stored):
        compile_config = config.pop("compile_config", None)
        model = _rebuilt(config, custom_objects, stored, label)
        if compile and isinstance(compile_config, dict):
            try:
                _compile(model, compile_config, custom_objects)
            except (KeyError, AttributeError, IndexError, RecursionError) as error:
                raise ValueError(
                    f"load_model: {label} holds malformed compile arguments "
                    f"({type(error).__name__}: {error})"
                ) from None
        objects = {"model": model}
        if compile and compile_config and model.optimizer is not None:
            objects["optimizer"] = model.optimizer
        status = _restore(objects, stored, label)
    try:
        status.assert_existing_objects_matched()
    except AssertionError as error:
        raise ValueError(
            f"load_model: {label} does not hold every weight of the model it describes ({error})"
        ) from None
    return model


def _restore(objects: dict, stored: ArrayFile, label: str) -> Any:
    return checkpoint_module.restore_from(
        Checkpoint(**objects)._checkpoint_children(), stored, label
    )


def load_weights_of(model: Model, filepath: str) -> None:
    """``model.load_weights("m.keras")``: the weights of a ``.keras`` file's model into
    ``model`` (same architecture), all or nothing."""
    label = repr(filepath)
    with opened(filepath, FORMAT) as (_, _, stored):
        status = _restore({"model": model}, stored, label)
    try:
        status.assert_existing_objects_matched()
    except AssertionError as error:
        raise ValueError(
            f"load_weights: {label} does not fit model {model.name} ({error})"
        ) from None
