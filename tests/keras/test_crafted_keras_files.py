""".keras and .weights.h5 files from strangers: each crafted file is loaded in a forked
child whose memory is capped, and must be a ValueError naming the file (never an internal
exception or a MemoryError); a config that asks for more than the file holds is refused
before anything is allocated; weights loads are all or nothing."""

from __future__ import annotations

import json
import pathlib
import zipfile

import numpy as np
import pytest

import retrograd as rg
from retrograd.training.storage import read_arrays, write_arrays
from tests.forked import needs_fork, run_forked
from tests.training.test_crafted_files import _header, _npy, bomb

keras = rg.keras
CAP = 256 * 2**20


def _saved(folder) -> dict:
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    path = folder / "good.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _crafted(folder, name: str, **replaced) -> str:
    members = {k: v for k, v in {**_saved(folder), **replaced}.items() if v is not None}
    path = folder / f"{name}.keras"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return str(path)


def _layers(folder, name: str, layers: list, **config) -> str:
    saved = json.loads(_saved(folder)["config.json"])
    saved["config"] = {**saved["config"], "layers": layers, **config}
    return _crafted(folder, name, **{"config.json": json.dumps(saved).encode()})


def _layer(cls: str, **config) -> dict:
    return {"class_name": cls, "module": "keras.layers", "config": config}


def _functional(folder, name: str, config: dict) -> str:
    entry = {"module": "keras", "class_name": "Functional", "config": config}
    return _crafted(folder, name, **{"config.json": json.dumps(entry).encode()})


def _weights_index(folder, name: str, shape: tuple) -> str:
    index = {
        "format": "retrograd-arrays/1",
        "members": {"model/x": "a_0"},
        "arrays": {"model/x": {"shape": list(shape), "dtype": "<f4"}},
        "metadata": {"kind": "retrograd-checkpoint/1"},
    }
    path = folder / "w.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a_0.npy", _header(shape) + bytes(16))
        archive.writestr("__index__.npy", _npy(np.frombuffer(json.dumps(index).encode(), np.uint8)))
    return _crafted(folder, name, **{"model.weights.npz": path.read_bytes()})


CRAFTED = {
    "metadata is a list": lambda d: _crafted(d, "a", **{"metadata.json": b"[1, 2]"}),
    "metadata is a string": lambda d: _crafted(d, "a", **{"metadata.json": b'"x"'}),
    "config is a list": lambda d: _crafted(d, "a", **{"config.json": b"[]"}),
    "config nests 10**5 deep": lambda d: _crafted(
        d, "a", **{"config.json": b"[" * 10**5 + b"]" * 10**5}
    ),
    "config nests 1000 deep": lambda d: _crafted(
        d, "a", **{"config.json": b'{"a":' * 1000 + b"1" + b"}" * 1000}
    ),
    "a string layer": lambda d: _layers(d, "a", ["x"]),
    "a layer without config": lambda d: _layers(d, "a", [{"class_name": "Dense"}]),
    "an unknown layer class": lambda d: _layers(d, "a", [_layer("os.system", name="x")]),
    "Dense(units=1e11)": lambda d: _layers(d, "a", [_layer("Dense", units=1e11, name="d")]),
    "Dense(units=10**11)": lambda d: _layers(d, "a", [_layer("Dense", units=10**11, name="d")]),
    "Embedding(output_dim=10**9)": lambda d: _layers(
        d, "a", [_layer("Embedding", input_dim=2, output_dim=10**9, name="e")]
    ),
    "an input of 10**10 values": lambda d: _layers(
        d, "a", [_layer("Flatten", name="f")], build_input_shape=[None, 10**5, 10**5]
    ),
    "RepeatVector(n=10**10)": lambda d: _layers(
        d, "a", [_layer("RepeatVector", n=10**10, name="r")]
    ),
    "ZeroPadding2D of 10**5": lambda d: _layers(
        d,
        "a",
        [
            _layer("Reshape", target_shape=[3, 1, 1], name="s"),
            _layer("ZeroPadding2D", padding=[[10**5, 10**5], [10**5, 10**5]], name="z"),
        ],
    ),  # fmt: skip
    "functional layer without a name": lambda d: _functional(
        d, "a", {"name": "f", "layers": [{"config": {}}], "nodes": [], "inputs": [], "outputs": []}
    ),
    "functional node of an unknown layer": lambda d: _functional(
        d, "a", {"name": "f", "layers": [], "nodes": [{"layer": "x"}], "inputs": [], "outputs": []}
    ),
    "functional reference to a missing tensor": lambda d: _functional(
        d,
        "a",
        {
            "name": "f",
            "layers": [],
            "nodes": [],
            "inputs": [{"__keras_tensor__": ["x", 0, 0]}],
            "outputs": [],
        },
    ),  # fmt: skip
    "weights header declares 2**40 floats": lambda d: _weights_index(d, "a", (2**40,)),
    "weights member is a zip bomb": lambda d: _crafted(
        d, "a", **{"model.weights.npz": pathlib.Path(bomb(d / "b.npz", 2**30)).read_bytes()}
    ),
    "config member is a zip bomb": lambda d: bomb(
        d / "a.keras",
        2**27,
        name="config.json",
        others={"metadata.json": _saved(d)["metadata.json"], "model.weights.npz": b""},
    ),
    "weights member missing": lambda d: _crafted(d, "a", **{"model.weights.npz": None}),
    "not a zip": lambda d: ((d / "a.keras").write_bytes(b"PK\x03\x04junk"), str(d / "a.keras"))[1],
}


@needs_fork
@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_keras_files_are_value_errors_within_memory(tmp_path, name):
    path = CRAFTED[name](tmp_path)
    outcome = run_forked(lambda: keras.models.load_model(path), memory=CAP)
    assert outcome[0] == "error", outcome
    assert outcome[1] in ("ValueError", "CheckpointFormatError"), outcome
    assert "a.keras" in outcome[2], outcome  # (the message names the file)


def test_a_config_asking_for_more_than_its_weights_says_so(tmp_path):
    path = _layers(tmp_path, "a", [_layer("Dense", units=10**11, name="d")])
    with pytest.raises(ValueError, match="more than the weights the file holds"):
        keras.models.load_model(path)


def test_load_weights_is_all_or_nothing(tmp_path):
    def model():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])

    source, target = model(), model()
    path = str(tmp_path / "m.weights.h5")
    source.save_weights(path)
    arrays, metadata = read_arrays(path)
    last = sorted(arrays)[-1]
    arrays[last] = np.zeros(5, np.float32)  # the last weight has another shape
    write_arrays(path, arrays, metadata)
    before = [w.copy() for w in target.get_weights()]
    with pytest.raises(ValueError, match="saved weight"):
        target.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(before, target.get_weights()))


def test_load_weights_of_a_keras_file(tmp_path):
    def model():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

    source, target = model(), model()
    source.save(tmp_path / "m.keras")
    target.load_weights(str(tmp_path / "m.keras"))
    assert all(np.array_equal(a, b) for a, b in zip(source.get_weights(), target.get_weights()))


@pytest.mark.parametrize("filepath", ["w.txt", "w.h5", "w.npz", "w.weights"])
def test_weights_files_need_keras_extension(tmp_path, filepath):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        model.save_weights(tmp_path / filepath)
    with pytest.raises(ValueError, match="File format not supported"):
        model.load_weights(tmp_path / filepath)
    with pytest.raises(ValueError, match=r"\.weights\.h5"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / filepath), save_weights_only=True)
