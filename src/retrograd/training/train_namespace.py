"""``retrograd.train`` (``tf.train``): checkpoints of object graphs.

>>> import retrograd as rg
>>> int(rg.train.Checkpoint(v=rg.Variable(1.0)).save_counter.numpy())
0
"""

from retrograd.training.checkpoint import Checkpoint, CheckpointLoadStatus
from retrograd.training.checkpoint_management import CheckpointManager, latest_checkpoint
from retrograd.training.checkpoint_utils import (
    CheckpointOptions,
    checkpoints_iterator,
    get_checkpoint_state,
    list_variables,
    load_checkpoint,
    load_variable,
)
from retrograd.training.checkpoint_views import CheckpointView, TrackableView
from retrograd.training.coordination import ClusterSpec, Coordinator
from retrograd.training.moving_averages import ExponentialMovingAverage

__all__ = ["Checkpoint", "CheckpointLoadStatus", "CheckpointManager", "latest_checkpoint"]
__all__ += [
    "CheckpointOptions", "CheckpointView", "ClusterSpec", "Coordinator",
    "ExponentialMovingAverage", "TrackableView",
    "checkpoints_iterator", "get_checkpoint_state", "list_variables", "load_checkpoint",
    "load_variable",
]  # fmt: skip
