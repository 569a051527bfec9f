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


from retrograd.core.variable_options import (  # noqa: E402  (they live in the core)
    VariableAggregationV2,
    VariableSynchronization,
)

VariableAggregation = VariableAggregationV2


def get_logger() -> logging.Logger:
    """The logger TensorFlow's messages go to (named "tensorflow"; WARNING until set).

    >>> get_logger().name
    'tensorflow'
    """
    logger = logging.getLogger("tensorflow")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)
    return logger
