"""Checkpoint files: bit-exact round trips, atomic replacement, clear errors, no pickle."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from retrograd.training.storage import CheckpointFormatError, read_arrays, write_arrays

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.bool_,
          np.complex64, np.complex128]  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_arrays_round_trip_bit_exactly(tmp_path, dtype):
    rng = np.random.default_rng(0)
    values = {
        "scalar": np.asarray(rng.normal(), dtype=dtype),
        "layer/kernel:0": (rng.normal(size=(3, 4)) * 100).astype(dtype),
        "empty": np.zeros((0, 2), dtype),
    }
    if np.dtype(dtype).kind == "f":
        values["special"] = np.array([np.nan, np.inf, -np.inf, -0.0], dtype)
    path = tmp_path / "ckpt.npz"
    write_arrays(path, values, {"step": 3, "names": ["a"]})
    arrays, metadata = read_arrays(path)
    assert metadata == {"step": 3, "names": ["a"]}
    assert list(arrays) == list(values)
    for name, value in values.items():
        assert arrays[name].dtype == value.dtype and arrays[name].shape == value.shape
        assert arrays[name].tobytes() == value.tobytes()


def test_user_names_never_become_member_names(tmp_path):
    import zipfile

    path = tmp_path / "ckpt.npz"
    write_arrays(path, {"../../etc/passwd": np.ones(2), "a b\n": np.zeros(1)})
    assert sorted(zipfile.ZipFile(path).namelist()) == ["__index__.npy", "a_0.npy", "a_1.npy"]
    assert sorted(read_arrays(path)[0]) == ["../../etc/passwd", "a b\n"]


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "corrupt or not a retrograd checkpoint"),
        (b"PK\x03\x04garbage", "corrupt or not a retrograd checkpoint"),
        (b"\x80\x04\x95pickle", "corrupt or not a retrograd checkpoint"),
    ],
    ids=["empty", "bad-zip", "pickle-bytes"],
)
def test_corrupt_files_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(CheckpointFormatError, match=message):
        read_arrays(path)


def test_foreign_npz_and_pickled_objects_are_refused(tmp_path):
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.ones(2))
    with pytest.raises(CheckpointFormatError, match="has no index"):
        read_arrays(foreign)
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, __index__=np.array([{"format": 1}], dtype=object))
    with pytest.raises(CheckpointFormatError, match="corrupt or not a retrograd checkpoint"):
        read_arrays(pickled)


def test_a_missing_file_and_object_arrays_are_clear_errors(tmp_path):
    with pytest.raises(CheckpointFormatError, match="no checkpoint file"):
        read_arrays(tmp_path / "missing.npz")
    with pytest.raises(TypeError, match="only numeric and bool arrays"):
        write_arrays(tmp_path / "x.npz", {"x": np.array([object()])})
    assert not os.path.exists(tmp_path / "x.npz")


def test_a_writer_killed_before_the_rename_leaves_the_previous_file_whole(tmp_path):
    path = tmp_path / "ckpt.npz"
    write_arrays(path, {"w": np.arange(4.0)}, {"step": 1})
    # A second writer dies (SIGKILL) after writing and fsyncing its temporary file, just
    # before the rename that would publish it.
    script = textwrap.dedent(
        f"""
        import os, numpy as np
        from retrograd.training import storage
        def die(*args):
            os.kill(os.getpid(), 9)
        storage.os.replace = die
        storage.write_arrays({str(path)!r}, {{"w": np.full(1_000_000, 7.0)}}, {{"step": 2}})
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert result.returncode == -9, result.stderr.decode()
    arrays, metadata = read_arrays(path)
    assert metadata == {"step": 1} and arrays["w"].tolist() == [0.0, 1.0, 2.0, 3.0]
