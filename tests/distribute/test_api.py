"""tf.distribute in one process (a program started plainly: one replica, as TensorFlow's
strategies on one CPU), and the error when the engine is missing."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import retrograd as tf
from retrograd.distribute.engine import MPIEngine


def test_the_default_strategy_and_the_contexts():
    assert not tf.distribute.has_strategy()
    assert tf.distribute.get_replica_context() is not None
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        assert tf.distribute.get_strategy() is strategy and tf.distribute.has_strategy()
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        seen = strategy.run(lambda: tf.distribute.get_replica_context().num_replicas_in_sync)
    assert seen == 1 and not tf.distribute.has_strategy()


def test_reduce_gather_and_datasets_with_one_replica():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    value = strategy.run(lambda x: x * 2.0, args=(tf.constant([[1.0, 2.0], [3.0, 4.0]]),))
    SUM, MEAN = tf.distribute.ReduceOp.SUM, tf.distribute.ReduceOp.MEAN
    assert strategy.reduce(SUM, value, axis=0).numpy().tolist() == [8.0, 12.0]
    assert strategy.reduce(MEAN, value, axis=0).numpy().tolist() == [4.0, 6.0]
    assert strategy.reduce(MEAN, {"a": value}, axis=None)["a"].shape == (2, 2)
    assert strategy.gather(value, axis=0).shape == (2, 2)
    assert len(strategy.experimental_local_results(value)) == 1
    contexts = []

    def dataset_fn(context):
        contexts.append(context)
        size = context.get_per_replica_batch_size(4)
        return tf.data.Dataset.from_tensor_slices(np.arange(8.0)).batch(size)

    batches = list(strategy.distribute_datasets_from_function(dataset_fn))
    assert [b.numpy().tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert contexts[0].num_input_pipelines == 1 and contexts[0].input_pipeline_id == 0


def test_bad_arguments_are_tensorflows_errors():
    strategy = tf.distribute.MirroredStrategy()
    with pytest.raises(ValueError, match="ReduceOp"):
        strategy.reduce("MAX", tf.constant(1.0), axis=None)
    with pytest.raises(ValueError, match="not divisible"):
        tf.distribute.InputContext(1, 0, 3).get_per_replica_batch_size(4)
    # TensorFlow divides with div_no_nan: a global batch of 0 gives 0, not an error.
    assert float(tf.nn.compute_average_loss(tf.constant([1.0]), global_batch_size=0)) == 0.0


def test_compute_average_loss_uses_the_global_batch():
    loss = tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]), sample_weight=[1.0, 0.0, 1.0])
    assert loss.numpy() == pytest.approx(4.0 / 3.0)
    assert tf.nn.scale_regularization_loss(tf.constant(3.0)).numpy() == 3.0


def test_a_missing_engine_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # (import fails as if not installed)
    with pytest.raises(tf.errors.MissingDependencyError, match=r"retrograd\[distribute\]"):
        MPIEngine()


def test_importing_retrograd_needs_numpy_only():
    import subprocess

    code = "import sys, retrograd; print(sorted(m for m in ('mpi4py', 'ray', 'dask') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
