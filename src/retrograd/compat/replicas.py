"""Distribution options of TensorFlow 1's variable functions (``get_variable``'s
``synchronization`` and ``aggregation``) in a process of one replica, and TensorFlow 1's
``VariableAggregation`` enum.

>>> one_replica("get_variable", None, VariableAggregation.NONE)
"""

from __future__ import annotations

from typing import Any

from retrograd.core.variable_options import VariableAggregation

__all__ = ["VariableAggregation", "one_replica"]


def one_replica(who: str, synchronization: Any, aggregation: Any) -> None:
    """Variables' synchronization and aggregation across replicas: retrograd runs one
    replica, where only TensorFlow's defaults (AUTO, NONE) mean anything."""
    for argument, value, default in (
        ("synchronization", synchronization, "AUTO"),
        ("aggregation", aggregation, "NONE"),
    ):
        if value is not None and getattr(value, "name", value) != default:
            raise ValueError(
                f"{who}: {argument}={value!r} needs several replicas; retrograd runs one "
                f"(only {default} is meaningful)"
            )
