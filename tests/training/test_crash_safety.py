"""A save killed at any file-system step (os.replace, unlink, fsync ...) of any saver leaves
``latest_checkpoint`` naming a complete checkpoint (the previous one or the new one), and the
next save, in a restarted process, cleans what the killed one left: temporary files,
checkpoints it meant to delete. Each kill runs in a forked child (tests/forked.py), so the
whole table takes a second or two."""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

import retrograd as rg
from tests.forked import needs_fork, run_forked

pytestmark = needs_fork
tf1 = rg.compat.v1


def _leftovers(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.startswith(".tmp-") or n.endswith(".deleting"))


def _kills(save) -> range:
    """The kill points of ``save``: before each of its file-system steps."""
    outcome = run_forked(save)
    assert outcome[0] == "value", outcome
    assert outcome[2] > 0
    return range(1, outcome[2] + 1)


# -- CheckpointManager --------------------------------------------------------------------


def _manager(folder, value: float | None):
    """A restarted job: a manager over ``folder``, restored; ``v`` set to ``value``."""
    v = rg.Variable(0.0)
    checkpoint = rg.train.Checkpoint(v=v)
    manager = rg.train.CheckpointManager(checkpoint, str(folder), max_to_keep=2)
    manager.restore_or_initialize()
    if value is not None:
        v.assign(value)
    return manager, v


def test_checkpoint_manager_survives_a_kill_at_every_step(tmp_path):
    kills = _kills(_prepared(tmp_path / "reference").save)
    for kill in kills:
        folder = tmp_path / f"kill-{kill}"
        manager = _prepared(folder)
        assert run_forked(manager.save, kill_at=kill) == ("killed", kill)
        latest = rg.train.latest_checkpoint(str(folder))
        assert latest is not None and os.path.basename(latest) in ("ckpt-3", "ckpt-4"), kill
        restarted, v = _manager(folder, None)
        assert float(v.numpy()) == {"ckpt-3": 3.0, "ckpt-4": 4.0}[os.path.basename(latest)]
        restarted.save()
        assert _leftovers(folder) == [], kill
        kept = sorted(n for n in os.listdir(folder) if n.endswith(".npz"))
        assert kept == sorted(os.path.basename(p) + ".npz" for p in restarted.checkpoints), kill


def _prepared(folder):
    """A folder with ckpt-1..3 (two kept), and a manager about to save ckpt-4 = 4.0."""
    for value in (1.0, 2.0, 3.0):
        manager, _ = _manager(folder, value)
        manager.save()
    manager, _ = _manager(folder, 4.0)
    return manager


# -- Checkpoint.save / write ----------------------------------------------------------------


def test_checkpoint_save_survives_a_kill_at_every_step(tmp_path):
    def prepared(folder):
        v = rg.Variable(1.0)
        checkpoint = rg.train.Checkpoint(v=v)
        checkpoint.save(str(folder / "ckpt"))
        v.assign(2.0)
        return checkpoint

    reference = prepared(tmp_path / "reference")
    kills = _kills(lambda: reference.save(str(tmp_path / "reference" / "ckpt")))
    for kill in kills:
        folder = tmp_path / f"kill-{kill}"
        save = functools.partial(prepared(folder).save, str(folder / "ckpt"))
        assert run_forked(save, kill_at=kill)[0] == "killed"
        latest = rg.train.latest_checkpoint(str(folder))
        assert os.path.basename(latest) in ("ckpt-1", "ckpt-2"), kill
        v = rg.Variable(0.0)
        rg.train.Checkpoint(v=v).read(latest).assert_consumed()
        assert float(v.numpy()) == {"ckpt-1": 1.0, "ckpt-2": 2.0}[os.path.basename(latest)]
        rg.train.Checkpoint(v=v).save(str(folder / "ckpt"))
        assert _leftovers(folder) == [], kill


# -- compat.v1.train.Saver ------------------------------------------------------------------


def _session(folder, value: float, saves: int = 0):
    graph = tf1.Graph() if hasattr(tf1, "Graph") else rg.Graph()
    with graph.as_default():
        w = tf1.Variable(0.0, name="w")
        saver = tf1.train.Saver(max_to_keep=2)
        init = tf1.global_variables_initializer()
    session = tf1.Session(graph=graph)
    session.run(init)
    for step in range(saves):
        session.run(w.assign(float(step)))
        saver.save(session, str(folder / "model"), global_step=step)
    with graph.as_default():
        session.run(w.assign(value))
    return saver, session, w, graph


def test_v1_saver_survives_a_kill_at_every_step(tmp_path):
    def prepared(folder):
        saver, session, _, _ = _session(folder, 9.0, saves=3)  # model-0..2, keeps 1 and 2
        return lambda: saver.save(session, str(folder / "model"), global_step=3)

    kills = _kills(prepared(tmp_path / "reference"))
    for kill in kills:
        folder = tmp_path / f"kill-{kill}"
        save = prepared(folder)
        assert run_forked(save, kill_at=kill)[0] == "killed"
        latest = tf1.train.latest_checkpoint(str(folder))
        assert os.path.basename(latest) in ("model-2", "model-3"), kill
        saver, session, w, _ = _session(folder, 0.0)
        saver.restore(session, latest)
        assert session.run(w) == {"model-2": 2.0, "model-3": 9.0}[os.path.basename(latest)]
        saver.save(session, str(folder / "model"), global_step=4)
        assert _leftovers(folder) == [], kill
        # what the killed save meant to delete (model-1) is gone once its state was written
        if os.path.basename(latest) == "model-3":
            assert not (folder / "model-1.npz").exists(), kill


def test_v1_saver_records_before_it_deletes(tmp_path):
    saver, session, _, _ = _session(tmp_path, 0.0, saves=3)
    names = sorted(n for n in os.listdir(tmp_path) if n.endswith(".npz"))
    assert names == ["model-1.npz", "model-2.npz"]
    assert [os.path.basename(p) for p in saver.last_checkpoints] == ["model-1", "model-2"]
    text = (tmp_path / "checkpoint").read_text()
    assert text.splitlines() == [
        'model_checkpoint_path: "model-2"',
        'all_model_checkpoint_paths: "model-1"',
        'all_model_checkpoint_paths: "model-2"',
    ]
    assert rg.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model-2")


# -- Keras ------------------------------------------------------------------------------------


def _model(value: float):
    model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
    model.set_weights([np.full((2, 1), value, np.float32), np.zeros(1, np.float32)])
    return model


@pytest.mark.parametrize("kind", ["model.keras", "model.weights.h5"])
def test_keras_saves_survive_a_kill_at_every_step(tmp_path, kind):
    def save(folder, value):
        model = _model(value)
        path = str(folder / kind)
        return lambda: model.save(path) if kind.endswith(".keras") else model.save_weights(path)

    (tmp_path / "reference").mkdir()
    save(tmp_path / "reference", 1.0)()
    kills = _kills(save(tmp_path / "reference", 2.0))
    for kill in kills:
        folder = tmp_path / f"kill-{kill}"
        folder.mkdir()
        save(folder, 1.0)()
        assert run_forked(save(folder, 2.0), kill_at=kill)[0] == "killed"
        path = str(folder / kind)
        if kind.endswith(".keras"):
            loaded = rg.keras.models.load_model(path)
        else:
            loaded = _model(0.0)
            loaded.load_weights(path)
        assert float(loaded.get_weights()[0][0, 0]) in (1.0, 2.0), kill
        save(folder, 3.0)()
        assert _leftovers(folder) == [], kill
