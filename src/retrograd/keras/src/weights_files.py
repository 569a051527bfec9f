"""``Model.save_weights`` and ``Model.load_weights``: every weight of a model, in ``weights``
order, in one file named ``*.weights.h5`` as Keras requires (its content is retrograd's:
NumPy arrays with a JSON index, written atomically and read without pickle; see
retrograd.training.storage; HDF5 is not read or written). ``load_weights`` also reads the
weights of a ``.keras`` file written by ``model.save``.

A load is all or nothing: the file's names, shapes and dtypes are compared with the model's
weights before any value is read, and nothing is assigned unless every weight can be.

>>> import os, tempfile, retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
>>> model.save_weights(path)
>>> copy = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
>>> copy.load_weights(path)
>>> all((a == b).all() for a, b in zip(model.get_weights(), copy.get_weights()))
True
"""

from __future__ import annotations

import os
from typing import Any

from retrograd.training.storage import ArrayFile, write_arrays

__all__ = ["save_weights", "load_weights", "WEIGHTS_SUFFIX"]

WEIGHTS_SUFFIX = ".weights.h5"
_KIND = "retrograd-keras-weights/1"


def save_weights(model: Any, filepath: Any, overwrite: bool = True) -> None:
    """Writes ``model``'s weights to ``filepath`` (which must end in ``.weights.h5``)."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(WEIGHTS_SUFFIX):
        raise ValueError(
            f"The filename must end in `{WEIGHTS_SUFFIX}`. Received: filepath={filepath}"
        )
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_weights: {filepath!r} exists and overwrite=False")
    arrays = {f"{i:05d}:{w.name}": w._value for i, w in enumerate(model.weights)}
    write_arrays(filepath, arrays, {"kind": _KIND, "count": len(arrays)})


def load_weights(model: Any, filepath: Any, skip_mismatch: bool = False) -> None:
    """Reads weights written by :func:`save_weights` (or a ``.keras`` file's) into
    ``model``, all or nothing (see the module)."""
    filepath = os.fspath(filepath)
    if filepath.endswith(".keras"):
        from retrograd.keras.src import saving

        saving.load_weights_of(model, filepath)
        return
    if not filepath.endswith(WEIGHTS_SUFFIX):
        raise ValueError(
            f"File format not supported: filepath={filepath}. retrograd reads `.keras` files "
            f"and `{WEIGHTS_SUFFIX}` files written by save_weights (Keras' HDF5 files and "
            f"legacy `.h5` files are not read)."
        )
    if not os.path.isfile(filepath):
        raise FileNotFoundError(f"load_weights: no such file: {filepath!r}")
    with ArrayFile(filepath) as stored:
        if stored.metadata.get("kind") != _KIND:
            raise ValueError(f"load_weights: {filepath!r} was not written by save_weights")
        keys = sorted(stored.names)
        own = model.weights
        if len(keys) != len(own):
            raise ValueError(
                f"load_weights: {filepath!r} holds {len(keys)} weights but model "
                f"{model.name} has {len(own)} (build the model before loading)"
            )
        chosen = []
        for key, variable in zip(keys, own):  # every weight checked before any is read
            shape, dtype = stored.spec(key)
            if shape != variable._value.shape or dtype != variable._value.dtype:
                if skip_mismatch:
                    continue
                raise ValueError(
                    f"load_weights: saved weight {key.split(':', 1)[-1]!r} is "
                    f"{dtype}{list(shape)} but '{variable.name}' is "
                    f"{variable._value.dtype}{list(variable._value.shape)}"
                )
            chosen.append((key, variable))
        values = [(variable, stored.read(key)) for key, variable in chosen]
    for variable, value in values:
        variable.assign(value)
