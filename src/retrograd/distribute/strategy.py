"""TensorFlow's synchronous data-parallel strategies, SPMD: every worker process runs the same
program and holds one replica. ``python -m retrograd.distribute -n 2 train.py`` starts two
workers (MPI, see ``engine``); started plainly, a program has one worker, and its strategies
have one replica, as TensorFlow's on one CPU.

Under a strategy, variables made in its ``scope()`` start from worker 0's values,
``optimizer.apply_gradients`` sums the replicas' gradients before updating (so per-replica
losses are scaled by the global batch: ``tf.nn.compute_average_loss``), and Keras' ``fit``
gives each replica its share of each global batch.

>>> import retrograd as tf
>>> strategy = tf.distribute.MirroredStrategy()
>>> strategy.num_replicas_in_sync
1
>>> out = strategy.run(lambda x: x * 2.0, args=(tf.constant([1.0, 2.0]),))
>>> strategy.reduce(tf.distribute.ReduceOp.SUM, out, axis=None).numpy().tolist()
[2.0, 4.0]
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable, set_creation_hook
from retrograd.distribute import engine as engine_module
from retrograd.distribute import values
from retrograd.distribute.values import ReduceOp, local_value
from retrograd.ops import array_ops, math_ops, reduction_ops
from retrograd.ops.numpy_function_ops import numpy_function

__all__ = ["Strategy", "MirroredStrategy", "MultiWorkerMirroredStrategy", "Extended"]


class Extended:
    """The collectives of a strategy over its engine (``strategy.extended``).

    >>> import retrograd as tf
    >>> tf.distribute.MirroredStrategy().extended.worker_index
    0
    """

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @property
    def worker_index(self) -> int:
        return self.engine.rank

    def _collective(self, tensor: Any, fn: Callable[[np.ndarray], np.ndarray]) -> Tensor:
        """``fn`` on ``tensor``'s array, now or (in a traced function) when the step runs."""
        tensor = convert_to_tensor(tensor)
        if context.graph is None:
            return convert_to_tensor(fn(np.asarray(tensor.numpy())))
        out = numpy_function(lambda a: np.asarray(fn(a), a.dtype), [tensor], tensor.dtype)
        return array_ops.reshape(out, array_ops.shape(tensor))

    def all_reduce(self, reduce_op: Any, value: Any, what: str = "all-reduce") -> Any:
        op = _reduce_op(reduce_op)
        size = self.engine.size

        def one(tensor: Any) -> Any:
            tensor = convert_to_tensor(local_value(tensor))
            if size == 1:
                return tensor
            total = self._collective(tensor, lambda a: self.engine.all_reduce(a, what=what))
            if op is ReduceOp.MEAN:
                total = total / math_ops.cast(size, total.dtype)
            return total

        return nest.map_structure(one, value)

    def all_gather(self, value: Any, axis: int, what: str = "all-gather") -> Any:
        def one(tensor: Any) -> Any:
            tensor = convert_to_tensor(local_value(tensor))
            if self.engine.size == 1:
                return tensor

            def gather(a: np.ndarray) -> np.ndarray:
                moved = np.moveaxis(a, axis, 0)
                parts = self.engine.all_gather(moved, what=what)
                return np.moveaxis(np.concatenate(parts, 0), 0, axis)

            if context.graph is None:
                return convert_to_tensor(gather(tensor.numpy()))
            return numpy_function(gather, [tensor], tensor.dtype)

        return nest.map_structure(one, value)

    def broadcast_variable(self, variable: Variable) -> None:
        # (called as the variable is made, before a subclass has set its own fields)
        value = self.engine.broadcast(variable._value, what="creating a variable")
        value.flags.writeable = False
        variable._value = value


def _reduce_op(reduce_op: Any) -> ReduceOp:
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
        return ReduceOp(reduce_op.upper())
    raise ValueError(f"reduce_op must be a tf.distribute.ReduceOp (SUM or MEAN), got {reduce_op!r}")


class Strategy:
    """The base of the strategies; with no engine it is the default strategy (one replica).

    >>> import retrograd as tf
    >>> strategy = tf.distribute.get_strategy()
    >>> strategy.num_replicas_in_sync, float(strategy.reduce("SUM", tf.constant(2.0), None))
    (1, 2.0)
    """

    def __init__(self, engine: Any = None, _default: bool = False) -> None:
        self.extended = Extended(engine or engine_module.Local())
        self._is_default = _default

    @property
    def num_replicas_in_sync(self) -> int:
        """How many replicas take part in each step (the workers, one replica each)."""
        return self.extended.engine.size

    @contextlib.contextmanager
    def scope(self) -> Iterator[Strategy]:
        """Variables (models, optimizers) made inside are mirrored: each worker starts from
        worker 0's values; Keras models compiled inside train under this strategy."""
        undo = values.entered(self, replica=False)
        try:
            yield self
        finally:
            undo()

    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None, options=None):
        """Calls ``fn`` on this worker's replica: ``PerReplica`` arguments are unwrapped, and
        each output comes back as a ``PerReplica`` (as plain values with one replica)."""
        local = nest.map_structure(local_value, (tuple(args), dict(kwargs or {})))
        undo = values.entered(self, replica=True)
        try:
            result = fn(*local[0], **local[1])
        finally:
            undo()
        return values.per_replica(result)

    def reduce(self, reduce_op: Any, value: Any, axis: int | None) -> Any:
        """Combines a per-replica value over all replicas: with ``axis``, over that axis
        too (``MEAN`` is then the mean of all the elements, whatever each replica had)."""
        op = _reduce_op(reduce_op)
        if axis is None:
            return self.extended.all_reduce(op, value, what="strategy.reduce")

        def one(tensor: Any) -> Any:
            tensor = convert_to_tensor(local_value(tensor))
            total = reduction_ops.reduce_sum(tensor, axis=axis)
            total = self.extended.all_reduce(ReduceOp.SUM, total, what="strategy.reduce")
            if op is ReduceOp.SUM:
                return total
            count = math_ops.cast(array_ops.shape(tensor)[axis], total.dtype)
            count = self.extended.all_reduce(ReduceOp.SUM, count, what="strategy.reduce")
            return total / count

        return nest.map_structure(one, value)

    def gather(self, value: Any, axis: int) -> Any:
        """The replicas' values concatenated along ``axis``, in replica order."""
        return self.extended.all_gather(value, axis, what="strategy.gather")

    def experimental_local_results(self, value: Any) -> tuple:
        """The values of the replicas on this worker (a tuple of one)."""
        return (nest.map_structure(local_value, value),)

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        """Each global batch of ``dataset`` split among the replicas (first dimension)."""
        from retrograd.distribute.input import DistributedDataset

        return DistributedDataset(self, dataset, split=True)

    def distribute_datasets_from_function(self, dataset_fn: Callable, options: Any = None):
        """``dataset_fn(InputContext)`` gives this worker's dataset of per-replica batches."""
        from retrograd.distribute.input import DistributedDataset, InputContext

        worker = self.extended.worker_index
        input_context = InputContext(self.num_replicas_in_sync, worker, self.num_replicas_in_sync)
        return DistributedDataset(self, dataset_fn(input_context), split=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.num_replicas_in_sync} replica(s)>"


def _sync_new_variable(variable: Variable) -> None:
    """Variables made in a multi-replica strategy's scope take worker 0's value."""
    if values.has_strategy():
        strategy = values.get_strategy()
        if strategy.num_replicas_in_sync > 1:
            strategy.extended.broadcast_variable(variable)


set_creation_hook(_sync_new_variable)


class MirroredStrategy(Strategy):
    """Synchronous data parallelism over the worker processes of this machine (TensorFlow's
    devices of one machine): the program's workers, one replica each.

    >>> import retrograd as tf
    >>> tf.distribute.MirroredStrategy().num_replicas_in_sync  # a program started plainly
    1
    """

    def __init__(self, devices: Any = None, cross_device_ops: Any = None) -> None:
        super().__init__(engine_module.engine())
        if devices is not None and self.num_replicas_in_sync > 1:
            raise ValueError(
                "MirroredStrategy: devices cannot be chosen when the program runs as several "
                f"workers ({self.num_replicas_in_sync}); each worker is one replica"
            )


class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous data parallelism over workers on one or several machines; the cluster is
    TF_CONFIG's (``{"cluster": {"worker": [...]}, "task": {"type": "worker", "index": i}}``)
    and the workers are started by the MPI launcher (see the docs' "Beyond one machine").

    >>> import retrograd as tf
    >>> strategy = tf.distribute.MultiWorkerMirroredStrategy()
    >>> strategy.num_replicas_in_sync, strategy.cluster_resolver.task_id
    (1, 0)
    """

    def __init__(self, communication_options: Any = None, cluster_resolver: Any = None) -> None:
        super().__init__(engine_module.engine())
        self.cluster_resolver = cluster_resolver or TFConfigClusterResolver(self.extended.engine)


class TFConfigClusterResolver:
    """The cluster of TF_CONFIG, checked against the workers the launcher started."""

    def __init__(self, engine: Any) -> None:
        config = json.loads(os.environ.get("TF_CONFIG") or "{}")
        workers = config.get("cluster", {}).get("worker")
        if workers is not None and len(workers) != engine.size:
            raise ValueError(
                f"MultiWorkerMirroredStrategy: TF_CONFIG lists {len(workers)} workers but "
                f"{engine.size} were started; start one per worker with "
                f"python -m retrograd.distribute -n {len(workers)} --hosts ... program.py"
            )
        task = config.get("task", {})
        self.task_type = task.get("type", "worker")
        self.task_id = engine.rank
        self.cluster_spec = {"worker": list(workers or engine.hosts)}

    def num_accelerators(self, *args: Any, **kwargs: Any) -> dict:
        return {}


def summed_gradients(pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """``(gradient, variable)`` pairs with each gradient summed over the replicas when a
    multi-replica strategy is current (``optimizer.apply_gradients`` calls it); one
    all-reduce per dtype carries them all."""
    strategy = values.all_reducing()
    if strategy is None:
        return pairs
    from retrograd.ops.indexed_slices import IndexedSlices, densify

    present = [i for i, (g, _) in enumerate(pairs) if g is not None]
    grads = []
    for i in present:
        g = pairs[i][0]
        grads.append(densify(g) if isinstance(g, IndexedSlices) else convert_to_tensor(g))
    if not grads:
        return pairs
    engine = strategy.extended.engine

    def all_reduce(*arrays: np.ndarray) -> list[np.ndarray]:
        out: list = [None] * len(arrays)
        for dtype in {a.dtype for a in arrays}:
            chosen = [i for i, a in enumerate(arrays) if a.dtype == dtype]
            flat = np.concatenate([np.ravel(arrays[i]) for i in chosen])
            flat = engine.all_reduce(flat, what="apply_gradients (summing the gradients)")
            for i, part in zip(chosen, np.split(flat, np.cumsum([arrays[i].size for i in chosen]))):
                out[i] = part.reshape(arrays[i].shape)
        return out

    summed = numpy_function(all_reduce, grads, [g.dtype for g in grads])
    summed = summed if isinstance(summed, (list, tuple)) else [summed]
    result = list(pairs)
    for i, g, s in zip(present, grads, summed):
        result[i] = (array_ops.reshape(s, array_ops.shape(g)), pairs[i][1])
    return result
