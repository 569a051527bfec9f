"""``retrograd.train`` (``tf.train``): checkpoints of object graphs.

>>> import retrograd as rg
>>> int(rg.train.Checkpoint(v=rg.Variable(1.0)).save_counter.numpy())
0
"""

from retrograd.training.checkpoint import Checkpoint, CheckpointLoadStatus
from retrograd.training.checkpoint_management import CheckpointManager, latest_checkpoint

__all__ = ["Checkpoint", "CheckpointLoadStatus", "CheckpointManager", "latest_checkpoint"]
