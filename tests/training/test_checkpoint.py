"""tf.train.Checkpoint / CheckpointManager: object-graph paths, TensorFlow's restore rules,
exact continuation of training after a restore (a killed process included)."""

import os
import pathlib
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import retrograd as rg
from retrograd.training.storage import read_arrays

SRC = str(pathlib.Path(rg.__file__).parent.parent)


class Net(rg.Module):
    """Two dense layers whose variables are created lazily, on the first call."""

    def __init__(self, seed=0):
        super().__init__()
        self.seed = seed
        self.layers = []

    def __call__(self, x):
        if not self.layers:
            rng = np.random.default_rng(self.seed)
            self.layers = [
                {"w": rg.Variable(rng.normal(size=(3, 4)).astype(np.float32)), "b": None},
                {"w": rg.Variable(rng.normal(size=(4, 1)).astype(np.float32))},
            ]
            self.bias = rg.Variable(np.zeros(4, np.float32), name="bias")
        h = rg.nn.relu(rg.matmul(x, self.layers[0]["w"]) + self.bias)
        return rg.matmul(h, self.layers[1]["w"])


def _data():
    rng = np.random.default_rng(42)
    return rg.constant(rng.normal(size=(8, 3)).astype(np.float32)), rg.constant(
        rng.normal(size=(8, 1)).astype(np.float32)
    )


def _train(net, optimizer, steps):
    x, y = _data()
    for _ in range(steps):
        with rg.GradientTape() as tape:
            loss = rg.reduce_mean(rg.square(net(x) - y))
        variables = net.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))


def test_paths_follow_the_object_graph(tmp_path):
    net, opt = Net(), rg.optimizers.Adam(0.01)
    _train(net, opt, 1)
    path = rg.train.Checkpoint(model=net, optimizer=opt).write(str(tmp_path / "c"))
    arrays, _ = read_arrays(path + ".npz")
    assert sorted(arrays) == [
        "model/bias",
        "model/layers/0/w",
        "model/layers/1/w",
        "optimizer/.OPTIMIZER_SLOT/model/bias/m",
        "optimizer/.OPTIMIZER_SLOT/model/bias/v",
        "optimizer/.OPTIMIZER_SLOT/model/layers/0/w/m",
        "optimizer/.OPTIMIZER_SLOT/model/layers/0/w/v",
        "optimizer/.OPTIMIZER_SLOT/model/layers/1/w/m",
        "optimizer/.OPTIMIZER_SLOT/model/layers/1/w/v",
        "optimizer/iterations",
        "save_counter",
    ]


@pytest.mark.parametrize("optimizer", ["Adam(0.01)", "SGD(0.1, momentum=0.9)", "RMSprop()"])
def test_restore_continues_training_bit_for_bit(tmp_path, optimizer):
    make = lambda: eval(f"rg.optimizers.{optimizer}")  # noqa: E731
    reference, reference_opt = Net(), make()
    _train(reference, reference_opt, 6)

    net, opt = Net(), make()
    _train(net, opt, 3)
    manager = rg.train.CheckpointManager(rg.train.Checkpoint(model=net, opt=opt), tmp_path, 2)
    manager.save()
    _train(net, opt, 2)  # lost work: the restore goes back to step 3

    # variables and slots do not exist yet: restored when they are created
    fresh, fresh_opt = Net(seed=7), make()
    status = rg.train.Checkpoint(model=fresh, opt=fresh_opt).restore(
        rg.train.latest_checkpoint(tmp_path)
    )
    with pytest.raises(AssertionError, match="Unresolved values"):
        status.assert_consumed()
    _train(fresh, fresh_opt, 3)
    status.assert_consumed()
    assert int(fresh_opt.iterations.numpy()) == 6
    for a, b in zip(reference.variables, fresh.variables):
        assert a.numpy().tobytes() == b.numpy().tobytes()


def test_manager_keeps_the_newest_and_the_state_file(tmp_path):
    v = rg.Variable(0.0)
    ckpt = rg.train.Checkpoint(v=v)
    manager = rg.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    for i in range(3):
        v.assign(float(i))
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-2", "ckpt-3"]
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-2.npz", "ckpt-3.npz"]
    assert manager.save(checkpoint_number=10).endswith("ckpt-10")
    assert int(ckpt.save_counter.numpy()) == 4
    again = rg.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.checkpoints == manager.checkpoints
    assert again.latest_checkpoint == rg.train.latest_checkpoint(tmp_path)
    assert rg.train.latest_checkpoint(tmp_path / "missing") is None


def test_save_numbers_files_and_write_does_not(tmp_path):
    ckpt = rg.train.Checkpoint(v=rg.Variable(1.0))
    assert ckpt.save(str(tmp_path / "x")).endswith("x-1")
    assert ckpt.save(str(tmp_path / "x")).endswith("x-2")
    assert rg.train.latest_checkpoint(tmp_path).endswith("x-2")
    assert ckpt.write(str(tmp_path / "w")) == str(tmp_path / "w")
    assert rg.train.latest_checkpoint(tmp_path).endswith("x-2")


def test_shape_mismatch_names_the_path(tmp_path):
    path = rg.train.Checkpoint(v=rg.Variable([1.0, 2.0])).save(str(tmp_path / "c"))
    with pytest.raises(ValueError, match=r"'v' is float32\[2\].*float32\[3\]"):
        rg.train.Checkpoint(v=rg.Variable([0.0, 0.0, 0.0])).restore(path)
    with pytest.raises(ValueError, match=r"'v' is float32\[2\].*float64\[2\]"):
        rg.train.Checkpoint(v=rg.Variable(np.zeros(2))).restore(path)


def test_unmatched_objects_and_expect_partial(tmp_path):
    path = rg.train.Checkpoint(v=rg.Variable(1.0)).save(str(tmp_path / "c"))
    status = rg.train.Checkpoint(w=rg.Variable(1.0)).restore(path)
    with pytest.raises(AssertionError, match="not bound to checkpointed values"):
        status.assert_existing_objects_matched()
    assert status.expect_partial() is status
    assert status.unused_values == ["v"]
    with pytest.raises(AssertionError, match="No checkpoint"):
        rg.train.Checkpoint(v=rg.Variable(1.0)).restore(None).assert_consumed()


def test_non_trackable_is_an_error():
    with pytest.raises(ValueError, match="trackable"):
        rg.train.Checkpoint(x=1)


def test_copied_optimizer_keeps_its_slots():
    import copy

    v, opt = rg.Variable([1.0, 2.0]), rg.optimizers.Adam(0.1)
    opt.apply_gradients([(rg.constant([1.0, 1.0]), v)])
    v2, opt2 = copy.deepcopy((v, opt))
    for var, o in ((v, opt), (v2, opt2)):
        o.apply_gradients([(rg.constant([0.5, -1.0]), var)])
    assert v.numpy().tobytes() == v2.numpy().tobytes()


_KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    import numpy as np
    import retrograd as rg
    sys.path.insert(0, {tests!r})
    from test_checkpoint import Net, _train
    folder, mode = sys.argv[1], sys.argv[2]
    net, opt = Net(), rg.optimizers.Adam(0.01)
    manager = rg.train.CheckpointManager(rg.train.Checkpoint(net=net, opt=opt), folder, 3)
    if mode == "first":
        _train(net, opt, 4)
        manager.save()
        _train(net, opt, 1)
        os.kill(os.getpid(), signal.SIGKILL)
    manager.restore_or_initialize()
    _train(net, opt, 4)
    print(" ".join(v.numpy().tobytes().hex() for v in net.variables))
    """
)


def test_save_kill_restore_continue_matches_uninterrupted_training(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(_KILLED_RUN.format(tests=str(pathlib.Path(__file__).parent)))
    env = {**os.environ, "PYTHONPATH": SRC}
    run = lambda mode: subprocess.run(  # noqa: E731
        [sys.executable, str(script), str(tmp_path / "ckpts"), mode],
        env=env,
        capture_output=True,
        text=True,
    )
    first = run("first")
    assert first.returncode == -signal.SIGKILL, first.stderr
    second = run("second")
    assert second.returncode == 0, second.stderr
    net, opt = Net(), rg.optimizers.Adam(0.01)
    _train(net, opt, 8)
    assert second.stdout.split() == [v.numpy().tobytes().hex() for v in net.variables]


def test_an_interrupted_save_leaves_the_previous_checkpoint_whole(tmp_path, monkeypatch):
    v = rg.Variable([1.0, 2.0])
    manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=v), tmp_path, max_to_keep=1)
    first = manager.save()
    v.assign([5.0, 6.0])

    def crash(*args, **kwargs):
        raise KeyboardInterrupt("killed while writing")

    monkeypatch.setattr(np, "savez", crash)
    with pytest.raises(KeyboardInterrupt):
        manager.save()
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.npz"]  # no temporary left
    assert rg.train.latest_checkpoint(tmp_path) == first
    w = rg.Variable([0.0, 0.0])
    rg.train.Checkpoint(v=w).restore(first).assert_consumed()
    assert w.numpy().tolist() == [1.0, 2.0]


def test_no_module_of_retrograd_imports_pickle():
    package = pathlib.Path(rg.__file__).parent
    users = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "import pickle" in path.read_text() or "from pickle" in path.read_text()
    ]
    assert users == []


def test_objects_assigned_to_a_checkpoint_later_are_saved(tmp_path):
    ckpt = rg.train.Checkpoint(v=rg.Variable(1.0))
    ckpt.step = rg.Variable(7, dtype=rg.int64)
    path = ckpt.save(str(tmp_path / "c"))
    other = rg.train.Checkpoint(v=rg.Variable(0.0), step=rg.Variable(0, dtype=rg.int64))
    other.restore(path).assert_consumed()
    assert int(other.step.numpy()) == 7 and float(other.v.numpy()) == 1.0
