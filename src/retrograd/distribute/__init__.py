"""``tf.distribute``: synchronous data parallelism over worker processes, on one machine or
several, with MPI (mpi4py) as the engine — an optional extra,
``pip install 'retrograd[distribute]'``, imported only when a program is launched as workers.

The program runs once per worker (SPMD): ``python -m retrograd.distribute -n 2 train.py``.
Started plainly it is one worker, and the strategies have one replica (as TensorFlow's on
one CPU), so the same file runs both ways.

>>> import retrograd as tf
>>> strategy = tf.distribute.MirroredStrategy()
>>> with strategy.scope():
...     v = tf.Variable(1.0)
>>> per_replica = strategy.run(lambda: v * 3.0)
>>> float(strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None))
3.0
"""

from retrograd.distribute.input import DistributedDataset, InputContext
from retrograd.distribute.strategy import (
    MirroredStrategy,
    MultiWorkerMirroredStrategy,
    Strategy,
)
from retrograd.distribute.values import (
    ReduceOp,
    ReplicaContext,
    get_replica_context,
    get_strategy,
    has_strategy,
    in_cross_replica_context,
)

__all__ = [
    "DistributedDataset",
    "InputContext",
    "MirroredStrategy",
    "MultiWorkerMirroredStrategy",
    "ReduceOp",
    "ReplicaContext",
    "Strategy",
    "get_replica_context",
    "get_strategy",
    "has_strategy",
    "in_cross_replica_context",
]
