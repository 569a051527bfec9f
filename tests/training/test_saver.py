"""compat.v1.train.Saver: bit-exact round trips of every variable, restore by name with
clear errors, the latest checkpoint, atomic saves (a writer killed before its rename leaves
the previous checkpoint whole), and corrupt or foreign files refused without pickle."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf
from retrograd.training.storage import CheckpointFormatError

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"

VALUES = {
    "dense/kernel": np.array([[np.pi, -0.0], [np.nan, np.inf]], np.float32),
    "dense/bias": np.array([1e-45, -3.4e38], np.float32),
    "counts": np.array([7, -(2**40)], np.int64),
    "scale": np.float64(np.e),
}


def _graph(values):
    g = rg.Graph()
    with g.as_default():
        variables = {n: tf.Variable(v, name=n) for n, v in values.items()}
        saver = tf.train.Saver()
        init = tf.global_variables_initializer()
    return g, variables, saver, init


def test_every_variable_round_trips_bit_exactly(tmp_path):
    g, variables, saver, init = _graph(VALUES)
    with tf.Session(graph=g) as sess:
        sess.run(init)
        prefix = saver.save(sess, str(tmp_path / "model"), global_step=12)
    assert prefix == str(tmp_path / "model-12")
    assert tf.train.latest_checkpoint(str(tmp_path)) == prefix
    g2, variables2, saver2, _ = _graph({n: np.zeros_like(v) for n, v in VALUES.items()})
    with tf.Session(graph=g2) as sess:
        saver2.restore(sess, prefix)  # no initializer needed: restoring assigns
        for name, value in VALUES.items():
            got = sess.run(variables2[name])
            assert got.dtype == np.asarray(value).dtype
            assert np.asarray(got).tobytes() == np.asarray(value).tobytes(), name


def test_latest_checkpoint_follows_saves_and_max_to_keep(tmp_path):
    g = rg.Graph()
    with g.as_default():
        w = tf.Variable(0.0, name="w")
        bump = tf.assign_add(w, 1.0)
        saver = tf.train.Saver(max_to_keep=2)
        init = tf.global_variables_initializer()
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    with tf.Session(graph=g) as sess:
        sess.run(init)
        for step in range(3):
            sess.run(bump)
            saver.save(sess, str(tmp_path / "m"), global_step=step)
        assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "m-2")
        assert sorted(p.name for p in tmp_path.glob("*.npz")) == ["m-1.npz", "m-2.npz"]
        sess.run(w.assign(-5.0))
        saver.restore(sess, str(tmp_path / "m-1"))
        assert sess.run(w) == 2.0


def test_restore_names_a_missing_or_mis_shaped_variable(tmp_path):
    g, _, saver, init = _graph({"a": np.ones(2, np.float32)})
    with tf.Session(graph=g) as sess:
        sess.run(init)
        prefix = saver.save(sess, str(tmp_path / "m"))
    g2, _, saver2, _ = _graph({"a": np.ones(2, np.float32), "b": np.ones(1, np.float32)})
    with (
        tf.Session(graph=g2) as sess,
        pytest.raises(CheckpointFormatError, match="Key b not found"),
    ):
        saver2.restore(sess, prefix)
    g3, _, saver3, _ = _graph({"a": np.ones(3, np.float32)})
    with (
        tf.Session(graph=g3) as sess,
        pytest.raises(CheckpointFormatError, match=r"Variable a:.*shape \[2\]"),
    ):
        saver3.restore(sess, prefix)
    with tf.Session(graph=g3) as sess, pytest.raises(ValueError, match="not a valid checkpoint"):
        saver3.restore(sess, str(tmp_path / "absent"))


def test_corrupt_or_foreign_files_are_refused_without_pickle(tmp_path):
    g, _, saver, _ = _graph({"a": np.ones(2, np.float32)})
    (tmp_path / "bad.npz").write_bytes(b"not a zip file at all")
    np.save(tmp_path / "obj.npy", np.array([{"x": 1}], dtype=object), allow_pickle=True)
    os.replace(tmp_path / "obj.npy", tmp_path / "foreign.npz")
    with tf.Session(graph=g) as sess:
        for name in ("bad", "foreign"):
            with pytest.raises(CheckpointFormatError):
                saver.restore(sess, str(tmp_path / name))


def test_a_save_killed_before_its_rename_leaves_the_previous_checkpoint_whole(tmp_path):
    script = textwrap.dedent(
        f"""
        import os, sys, numpy as np
        import retrograd as rg
        from retrograd.compat import v1 as tf
        from retrograd.training import storage
        g = rg.Graph()
        with g.as_default():
            w = tf.Variable(np.arange(4.0, dtype=np.float32), name="w")
            saver = tf.train.Saver()
            init = tf.global_variables_initializer()
        with tf.Session(graph=g) as sess:
            sess.run(init)
            saver.save(sess, {str(tmp_path / "m")!r})
            sess.run(w.assign(np.full(4, 7.0, np.float32)))
            storage.os.replace = lambda *a: os.kill(os.getpid(), 9)
            saver.save(sess, {str(tmp_path / "m")!r})
        """
    )
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, env=env)
    assert result.returncode == -9, result.stderr.decode()
    g, variables, saver, _ = _graph({"w": np.zeros(4, np.float32)})
    with tf.Session(graph=g) as sess:
        saver.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))
        assert sess.run(variables["w"]).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_saver_checkpoint_lists_its_variables_by_their_saved_names(tmp_path):
    # Name-based (TF1 Saver) checkpoints keep the names given, also through a var_list dict;
    # object-based suffixes (/.ATTRIBUTES/VARIABLE_VALUE) belong to tf.train.Checkpoint only.
    g = rg.Graph()
    with g.as_default():
        w = tf.Variable(np.ones((2, 3), np.float32), name="scope/w")
        b = tf.Variable(np.zeros(3, np.float32), name="scope/b")
        saver = tf.train.Saver({"encoder/w": w, "encoder/b": b})
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        path = saver.save(sess, str(tmp_path / "enc"))
    assert tf.train.list_variables(path) == [("encoder/b", [3]), ("encoder/w", [2, 3])]
    assert tf.train.load_variable(path, "encoder/w:0").tolist() == [[1.0] * 3] * 2
