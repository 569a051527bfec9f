"""How a variable's copies are kept in step across replicas: TensorFlow's
``VariableSynchronization`` and ``VariableAggregation`` (accepted by ``Variable``; retrograd
runs one replica).

>>> VariableSynchronization.AUTO.value
0
"""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["VariableAggregation", "VariableAggregationV2", "VariableSynchronization", "checked"]


class VariableAggregationV2(enum.Enum):
    """How the replicas' updates of a variable are combined (``tf.VariableAggregation``).

    >>> VariableAggregationV2(1)
    <VariableAggregationV2.SUM: 1>
    """

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


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


class VariableAggregation(enum.Enum):
    """TensorFlow 1's ``tf.compat.v1.VariableAggregation``: TensorFlow 2's members and the
    alias ``ONLY_FIRST_TOWER`` (of ``ONLY_FIRST_REPLICA``).

    >>> VariableAggregation.ONLY_FIRST_TOWER is VariableAggregation.ONLY_FIRST_REPLICA
    True
    """

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3


def checked(
    trainable: Any, validate_shape: Any, variable_def: Any, import_scope: Any, constraint: Any,
    synchronization: Any, aggregation: Any,
) -> tuple[bool, VariableSynchronization, Any]:  # fmt: skip
    """``tf.Variable``'s options checked as TensorFlow checks them: ``(trainable,
    synchronization, aggregation)``, trainable None meaning True except for ``ON_READ``
    synchronization, and enum values given as their numbers.

    >>> checked(None, True, None, None, None, VariableSynchronization.ON_READ, None)[0]
    False
    """
    if variable_def is not None or import_scope is not None:
        raise ValueError(
            "Variable: `variable_def`/`import_scope` rebuild a variable from a VariableDef "
            "protocol buffer of a TensorFlow graph, which retrograd does not have"
        )
    if not validate_shape:
        raise ValueError(
            "Variable: validate_shape=False (a variable whose shape changes with each "
            "assignment) is not supported; give the shape the variable keeps"
        )
    if constraint is not None and not callable(constraint):
        raise ValueError("The `constraint` argument must be a callable.")
    if aggregation is None:
        aggregation = VariableAggregation.NONE
    elif not isinstance(aggregation, (VariableAggregation, VariableAggregationV2)):
        try:
            aggregation = VariableAggregationV2(aggregation)
        except ValueError:
            raise ValueError(f"Invalid variable aggregation mode: {aggregation}") from None
    try:
        synchronization = VariableSynchronization(
            VariableSynchronization.AUTO if synchronization is None else synchronization
        )
    except ValueError:
        raise ValueError(f"Invalid variable synchronization mode: {synchronization}") from None
    if trainable is None:
        trainable = synchronization != VariableSynchronization.ON_READ
    return bool(trainable), synchronization, aggregation
