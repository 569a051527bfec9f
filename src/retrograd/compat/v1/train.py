"""``retrograd.compat.v1.train``: TensorFlow 1's optimizers, schedules, global step,
moving averages, thread coordination, Saver and monitored sessions with their hooks;
TensorFlow 2's ``tf.train`` names (``Checkpoint``, ``CheckpointManager``, ...) are here too,
as in TensorFlow.

>>> import retrograd as rg
>>> rg.compat.v1.train.Checkpoint is rg.train.Checkpoint
True
"""

from retrograd.compat.delegation import shared_names as _shared_names
from retrograd.compat.delegation import shared_value as _shared_value
from retrograd.compat.monitored_session import (
    ChiefSessionCreator,
    MonitoredSession,
    Scaffold,
    SessionCreator,
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
    SingularMonitoredSession,
)
from retrograd.compat.session_hooks import (
    CheckpointSaverHook,
    CheckpointSaverListener,
    FeedFnHook,
    FinalOpsHook,
    GlobalStepWaiterHook,
    LoggingTensorHook,
    MonitoredTrainingSession,
    NanLossDuringTrainingError,
    NanTensorHook,
    SecondOrStepTimer,
    StepCounterHook,
    StopAtStepHook,
    SummarySaverHook,
    basic_train_loop,
)
from retrograd.training.checkpoint_files import (
    NewCheckpointReader,
    get_checkpoint_mtimes,
    remove_checkpoint,
)
from retrograd.training.saver import Saver, checkpoint_exists, latest_checkpoint
from retrograd.training.v1_coordination import (
    Coordinator,
    LooperThread,
    assert_global_step,
    global_step,
)
from retrograd.training.v1_more_optimizers import (
    AdadeltaOptimizer,
    FtrlOptimizer,
    ProximalAdagradOptimizer,
    ProximalGradientDescentOptimizer,
)
from retrograd.training.v1_moving_averages import ExponentialMovingAverage
from retrograd.training.v1_optimizers import (
    AdagradOptimizer,
    AdamOptimizer,
    GradientDescentOptimizer,
    MomentumOptimizer,
    Optimizer,
    RMSPropOptimizer,
    create_global_step,
    get_global_step,
    get_or_create_global_step,
)
from retrograd.training.v1_schedules import (
    cosine_decay,
    cosine_decay_restarts,
    exponential_decay,
    inverse_time_decay,
    linear_cosine_decay,
    natural_exp_decay,
    noisy_linear_cosine_decay,
    piecewise_constant,
    polynomial_decay,
)
from retrograd.training.v1_schedules import piecewise_constant as piecewise_constant_decay

__all__ = [
    "NewCheckpointReader",
    "get_checkpoint_mtimes",
    "remove_checkpoint",
    "AdadeltaOptimizer",
    "AdagradOptimizer",
    "AdamOptimizer",
    "assert_global_step",
    "basic_train_loop",
    "checkpoint_exists",
    "CheckpointSaverHook",
    "CheckpointSaverListener",
    "ChiefSessionCreator",
    "Coordinator",
    "cosine_decay",
    "cosine_decay_restarts",
    "create_global_step",
    "exponential_decay",
    "ExponentialMovingAverage",
    "FeedFnHook",
    "FinalOpsHook",
    "FtrlOptimizer",
    "get_global_step",
    "get_or_create_global_step",
    "global_step",
    "GlobalStepWaiterHook",
    "GradientDescentOptimizer",
    "inverse_time_decay",
    "latest_checkpoint",
    "linear_cosine_decay",
    "LoggingTensorHook",
    "LooperThread",
    "MomentumOptimizer",
    "MonitoredSession",
    "MonitoredTrainingSession",
    "NanLossDuringTrainingError",
    "NanTensorHook",
    "natural_exp_decay",
    "noisy_linear_cosine_decay",
    "Optimizer",
    "piecewise_constant",
    "piecewise_constant_decay",
    "polynomial_decay",
    "ProximalAdagradOptimizer",
    "ProximalGradientDescentOptimizer",
    "RMSPropOptimizer",
    "Saver",
    "Scaffold",
    "SecondOrStepTimer",
    "SessionCreator",
    "SessionRunArgs",
    "SessionRunContext",
    "SessionRunHook",
    "SessionRunValues",
    "SingularMonitoredSession",
    "StepCounterHook",
    "StopAtStepHook",
    "SummarySaverHook",
]


def __getattr__(name):
    """The rest of ``retrograd.train`` (TensorFlow 2's ``tf.train``)."""
    return _shared_value(name, "tf.compat.v1.train", "train")


def __dir__():
    return sorted(set(__all__) | set(_shared_names("train")))
