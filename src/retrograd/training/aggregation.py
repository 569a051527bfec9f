"""The enumerations of how gradients and variables' values are combined:
``AggregationMethod`` (``tf.gradients``' ``aggregation_method``), ``VariableAggregation`` and
``VariableSynchronization`` (how replicas' copies of a variable are combined and kept in step),
with TensorFlow's names and values; and ``get_logger`` (the logger named "tensorflow").

retrograd computes in one process on one device, so every method adds gradients the same way
(up to rounding) and the variable settings describe what a distribution strategy would do.

>>> import retrograd as tf
>>> tf.VariableAggregation.MEAN
<VariableAggregationV2.MEAN: 2>
>>> tf.AggregationMethod.EXPERIMENTAL_TREE
1
"""

from __future__ import annotations

import enum
import logging

__all__ = [
    "AggregationMethod", "VariableAggregation", "VariableAggregationV2",
    "VariableSynchronization", "get_logger",
]  # fmt: skip


class AggregationMethod:
    """How ``tf.gradients`` adds the gradients a tensor receives from several ops: all at once
    (``ADD_N``, the default) or in pairs (``EXPERIMENTAL_TREE``); the same sum here.

    >>> AggregationMethod.DEFAULT == AggregationMethod.ADD_N
    True
    """

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class VariableAggregationV2(enum.Enum):
    """How the replicas' updates of a variable are combined (``tf.VariableAggregation``).

    >>> VariableAggregationV2(1)
    <VariableAggregationV2.SUM: 1>
    """

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


VariableAggregation = VariableAggregationV2


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are brought in step (``AUTO``: as the strategy
    chooses, ``NONE``: one copy, ``ON_WRITE``: at each update, ``ON_READ``: when read).

    >>> VariableSynchronization.ON_READ.value
    3
    """

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


def get_logger() -> logging.Logger:
    """The logger TensorFlow's messages go to (named "tensorflow"; WARNING until set).

    >>> get_logger().name
    'tensorflow'
    """
    logger = logging.getLogger("tensorflow")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)
    return logger
