"""Checkpoint files and state files from strangers: each crafted file is loaded in a forked
child whose memory is capped (a load that tried to allocate what the file declares would
fail there with MemoryError), and must end in a typed error (CheckpointFormatError, a
ValueError) naming the problem, never an internal exception, and never delete, read or
write outside its folder. Loads that fail change nothing."""

from __future__ import annotations

import io
import json
import os
import zipfile
import zlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.training.storage import CheckpointFormatError, read_arrays, write_arrays
from tests.forked import needs_fork, run_forked

pytestmark = needs_fork
CAP = 256 * 2**20  # what a load may allocate beyond the test process
INDEX = {"format": "retrograd-arrays/1", "members": {}, "arrays": {}, "metadata": {}}


def _npy(array: np.ndarray) -> bytes:
    stream = io.BytesIO()
    np.save(stream, array, allow_pickle=True)
    return stream.getvalue()


def _header(shape: tuple, descr: str = "<f4") -> bytes:
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        stream, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    return stream.getvalue()


def _archive(path, members: dict, index: object, compress: set = frozenset()) -> str:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            kind = zipfile.ZIP_DEFLATED if name in compress else zipfile.ZIP_STORED
            archive.writestr(name, data, compress_type=kind)
        if index is not None:
            text = index if isinstance(index, bytes) else json.dumps(index).encode()
            archive.writestr("__index__.npy", _npy(np.frombuffer(text, np.uint8)))
    return str(path)


def _index(**arrays) -> dict:
    return {
        **INDEX,
        "members": {name: f"a_{i}" for i, name in enumerate(arrays)},
        "arrays": {name: {"shape": list(shape), "dtype": d} for name, (shape, d) in arrays.items()},
        "metadata": {"kind": "retrograd-checkpoint/1"},
    }


def bomb(path, inflated: int, name: str = "a_0.npy", others: dict | None = None) -> str:
    """A zip whose member ``name`` inflates to ``inflated`` bytes (an npy header, then
    zeros) from a file of a few kilobytes: one deflate block of 16 MiB of zeros, repeated
    (made in milliseconds; its checksum is not computed: a loader that inflates it has
    allocated before it could check)."""
    header = _header(((inflated - 128) // 4,))
    chunk = 2**24
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = compressor.compress(header.ljust(128, b" ")) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(chunk)) + compressor.flush(zlib.Z_FULL_FLUSH)
    count = (inflated - 128) // chunk
    data = first + block * count + compressor.flush(zlib.Z_FINISH)
    with zipfile.ZipFile(path, "w") as archive:
        for other, content in (others or {}).items():
            archive.writestr(other, content)
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.CRC, info.file_size, info.compress_size = 0, 128 + count * chunk, len(data)
        info.header_offset = archive.fp.tell()
        archive.fp.write(info.FileHeader())
        archive.fp.write(data)
        archive.filelist.append(info)
        archive.NameToInfo[name] = info
        archive.start_dir = archive.fp.tell()
        archive._didModify = True
    return str(path)


CRAFTED = {
    "index is a list": lambda d: _archive(d / "f.npz", {}, [1, 2]),
    "index is a string": lambda d: _archive(d / "f.npz", {}, "x"),
    "metadata is a string": lambda d: _archive(d / "f.npz", {}, {**INDEX, "metadata": "x"}),
    "index nests 100000 deep": lambda d: _archive(d / "f.npz", {}, b"[" * 10**5 + b"]" * 10**5),
    "header declares 2**40 floats": lambda d: _archive(
        d / "f.npz", {"a_0.npy": _header((2**40,)) + bytes(16)}, _index(x=((2**40,), "<f4"))
    ),
    "index declares 2**40 floats": lambda d: _archive(
        d / "f.npz", {"a_0.npy": _npy(np.zeros(4, np.float32))}, _index(x=((2**40,), "<f4"))
    ),
    "negative dimension": lambda d: _archive(
        d / "f.npz", {"a_0.npy": _npy(np.zeros(4, np.float32))}, _index(x=((-4,), "<f4"))
    ),
    "object dtype": lambda d: _archive(
        d / "f.npz", {"a_0.npy": _npy(np.array([1, "a"], object))}, _index(x=((2,), "|O"))
    ),
    "member missing": lambda d: _archive(d / "f.npz", {}, _index(x=((4,), "<f4"))),
    "member not indexed": lambda d: _archive(
        d / "f.npz",
        {"a_0.npy": _npy(np.zeros(4)), "evil.npy": _npy(np.zeros(4))},
        _index(x=((4,), "<f8")),
    ),
    "compressed member (a zip bomb)": lambda d: bomb(
        d / "f.npz", 2**30, others={"__index__.npy": _npy(np.frombuffer(b"{}", np.uint8))}
    ),
    "truncated": lambda d: (
        write_arrays(d / "f.npz", {"x": np.zeros(1000)}),
        (d / "f.npz").write_bytes((d / "f.npz").read_bytes()[:3000]),
        str(d / "f.npz"),
    )[-1],
    "not a zip": lambda d: ((d / "f.npz").write_bytes(b"\x80\x04pickle"), str(d / "f.npz"))[-1],
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_checkpoint_files_are_typed_errors_within_memory(tmp_path, name):
    path = CRAFTED[name](tmp_path)
    outcome = run_forked(lambda: read_arrays(path), memory=CAP)
    assert outcome[:2] == ("error", "CheckpointFormatError"), outcome
    outcome = run_forked(lambda: rg.train.Checkpoint(v=rg.Variable(1.0)).read(path[:-4]), CAP)
    assert outcome[:2] == ("error", "CheckpointFormatError"), outcome


def test_a_zip_bomb_is_refused_before_it_is_read(tmp_path):
    path = bomb(tmp_path / "f.npz", 2**30)
    assert os.path.getsize(path) < 2**21  # a 1 GiB member in a file of a megabyte
    with pytest.raises(CheckpointFormatError, match="compressed"):
        read_arrays(path)


def test_a_malformed_slot_key_is_a_format_error(tmp_path):
    prefix = str(tmp_path / "ckpt")
    write_arrays(
        prefix + ".npz",
        {"opt/.OPTIMIZER_SLOT/x": np.zeros(1, np.float32)},
        {"kind": "retrograd-checkpoint/1"},
    )
    with pytest.raises(CheckpointFormatError, match="not a slot key"):
        rg.train.Checkpoint(v=rg.Variable(1.0)).read(prefix)


def test_a_failed_restore_assigns_nothing(tmp_path):
    a, b = rg.Variable([1.0, 2.0]), rg.Variable([3.0])
    path = rg.train.Checkpoint(a=a, b=b).write(str(tmp_path / "ckpt"))
    x, y = rg.Variable([0.0, 0.0]), rg.Variable([0.0, 0.0])  # y has another shape
    with pytest.raises(ValueError, match="shapes and dtypes must match"):
        rg.train.Checkpoint(a=x, b=y).read(path)
    assert x.numpy().tolist() == [0.0, 0.0] and y.numpy().tolist() == [0.0, 0.0]


def test_a_failed_slot_restore_assigns_nothing(tmp_path):
    v = rg.Variable([1.0, 2.0])
    opt = rg.keras.optimizers.Adam(0.1)
    opt.apply_gradients([(rg.constant([1.0, 1.0]), v)])
    path = rg.train.Checkpoint(v=v, opt=opt).write(str(tmp_path / "ckpt"))
    arrays, metadata = read_arrays(path + ".npz")
    slot = next(k for k in arrays if ".OPTIMIZER_SLOT" in k)
    arrays[slot] = np.zeros(3, np.float32)  # a slot of the wrong shape
    write_arrays(path + ".npz", arrays, metadata)
    w = rg.Variable([5.0, 5.0])
    other = rg.keras.optimizers.Adam(0.1)
    other.apply_gradients([(rg.constant([1.0, 1.0]), w)])
    w.assign([5.0, 5.0])
    with pytest.raises(ValueError, match="slot|float32"):
        rg.train.Checkpoint(v=w, opt=other).read(path)
    assert w.numpy().tolist() == [5.0, 5.0]


# -- state files ---------------------------------------------------------------------------


def _state(folder, *lines: str) -> None:
    (folder / "checkpoint").write_text("\n".join(lines) + "\n")


def test_a_state_naming_files_outside_the_folder_deletes_nothing(tmp_path):
    folder, victim = tmp_path / "ckpts", tmp_path / "victim-data.npz"
    folder.mkdir()
    np.savez(victim, data=np.arange(3))
    _state(
        folder,
        'model_checkpoint_path: "../victim-data"',
        'all_model_checkpoint_paths: "../victim-data"',
        f"all_model_checkpoint_paths: {json.dumps(str(tmp_path / 'victim-data'))}",
    )
    with pytest.warns(UserWarning, match="does not name a checkpoint"):
        manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=rg.Variable(1.0)), folder, 1)
    for _ in range(3):
        manager.save()
    assert victim.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["checkpoint", "ckpt-3.npz"]


def test_latest_checkpoint_ignores_paths_outside_the_folder(tmp_path):
    folder = tmp_path / "ckpts"
    folder.mkdir()
    write_arrays(tmp_path / "outside.npz", {"x": np.zeros(1)})
    for recorded in ["../outside", str(tmp_path / "outside"), "sub/../../outside", ".hidden"]:
        _state(folder, f"model_checkpoint_path: {json.dumps(recorded)}")
        with pytest.warns(UserWarning):
            assert rg.train.latest_checkpoint(str(folder)) is None
            assert rg.compat.v1.train.latest_checkpoint(str(folder)) is None


def test_a_symbolic_link_out_of_the_folder_is_not_followed(tmp_path):
    folder = tmp_path / "ckpts"
    folder.mkdir()
    victim = tmp_path / "victim.npz"
    write_arrays(victim, {"x": np.zeros(1)})
    (folder / "ckpt-1.npz").symlink_to(victim)
    _state(folder, 'model_checkpoint_path: "ckpt-1"', 'all_model_checkpoint_paths: "ckpt-1"')
    assert rg.train.latest_checkpoint(str(folder)) is None
    manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=rg.Variable(1.0)), folder, 1)
    manager.save()
    manager.save()
    assert victim.exists()


@pytest.mark.parametrize(
    "text",
    ["model_checkpoint_path: unquoted", "{json: 1}", 'model_checkpoint_path: "a\\q"', "\x00\xff"],
)
def test_a_garbage_state_file_is_ignored_with_a_warning(tmp_path, text):
    (tmp_path / "checkpoint").write_bytes(text.encode("latin-1"))
    with pytest.warns(UserWarning, match="not a checkpoint state"):
        assert rg.train.latest_checkpoint(str(tmp_path)) is None


def test_latest_filename_must_name_a_file_of_the_folder(tmp_path):
    with pytest.raises(ValueError, match="latest_filename"):
        rg.train.latest_checkpoint(str(tmp_path), latest_filename="../checkpoint")


def test_the_state_file_is_tensorflows_text_format(tmp_path):
    from retrograd.training import checkpoint_state

    name = 'ckpt "é"\\'
    text = checkpoint_state.format_state(name, [name], [1.5], 2.0)
    assert text.splitlines()[0] == 'model_checkpoint_path: "ckpt \\"\\303\\251\\"\\\\"'
    fields = checkpoint_state.parse_state(text)
    assert fields["model_checkpoint_path"] == [name]
    assert fields["all_model_checkpoint_timestamps"] == [1.5]
    assert fields["last_preserved_timestamp"] == [2.0]
