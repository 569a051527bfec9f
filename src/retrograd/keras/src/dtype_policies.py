"""Keras' dtype policies (``keras.DTypePolicy``, ``keras.mixed_precision``): a layer's
compute dtype and the dtype of its variables. ``'mixed_float16'`` computes in float16 with
float32 variables (read as float16 inside the layer's call); the global policy is what layers
made without a ``dtype`` use.

>>> import retrograd as rg
>>> p = rg.keras.mixed_precision.Policy("mixed_float16")
>>> p, p.compute_dtype, p.variable_dtype
(<DTypePolicy "mixed_float16">, 'float16', 'float32')
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import standardize_dtype

__all__ = [
    "DTypePolicy",
    "FloatDTypePolicy",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
    "get",
]


class DTypePolicy:
    """A dtype policy by name: a float dtype, or ``'mixed_float16'``/``'mixed_bfloat16'``
    (16-bit computation, float32 variables); None is the ``floatx`` dtype.

    >>> import retrograd as rg
    >>> rg.keras.DTypePolicy("float64").compute_dtype
    'float64'
    """

    def __init__(self, name: Any = None) -> None:
        if name is None:
            name = backend.floatx()
        if isinstance(name, DTypePolicy):
            name = name.name
        given = name = getattr(name, "name", name)
        if name not in ("mixed_float16", "mixed_bfloat16"):
            try:
                name = standardize_dtype(name)
            except ValueError:
                name = None
        if name is None:
            raise ValueError(
                f"Cannot convert '{given}' to a mixed precision DTypePolicy. Valid policies "
                "include 'mixed_float16', 'mixed_bfloat16', and the name of any float dtype "
                "such as 'float32'."
            )
        self._name = name
        if name.startswith("mixed_"):
            self._compute, self._variable = name[len("mixed_") :], "float32"
        else:
            self._compute = self._variable = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        return self._compute

    @property
    def variable_dtype(self) -> str:
        return self._variable

    @property
    def quantization_mode(self) -> None:
        return None

    def convert_input(self, x: Any, autocast: bool, dtype: Any) -> Any:
        """``x`` cast to ``dtype`` where it is a float tensor and ``autocast`` is set."""
        from retrograd.keras.src.ops import tensors

        t = tensors.convert(x)
        if autocast and t.dtype.is_floating and t.dtype.name != dtype:
            return tensors.convert(t, dtype)
        return t

    def get_config(self) -> dict:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict) -> DTypePolicy:
        return cls(**config)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<DTypePolicy "{self._name}">'


class FloatDTypePolicy(DTypePolicy):
    """A dtype policy of float dtypes (as ``DTypePolicy``).

    >>> import retrograd as rg
    >>> rg.keras.FloatDTypePolicy("mixed_bfloat16").compute_dtype
    'bfloat16'
    """


Policy = DTypePolicy

_GLOBAL: list[DTypePolicy | None] = [None]


def get(identifier: Any) -> DTypePolicy:
    """A policy from a name, a policy or a config dict.

    >>> from retrograd.keras.src.dtype_policies import get
    >>> get("mixed_float16").variable_dtype
    'float32'
    """
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return DTypePolicy(identifier.get("config", identifier).get("name"))
    return DTypePolicy(identifier)


def dtype_policy() -> DTypePolicy:
    """The global dtype policy (the ``floatx`` dtype unless set).

    >>> import retrograd as rg
    >>> rg.keras.mixed_precision.dtype_policy()
    <DTypePolicy "float32">
    """
    return _GLOBAL[0] if _GLOBAL[0] is not None else DTypePolicy(backend.floatx())


global_policy = dtype_policy


def set_dtype_policy(policy: Any) -> None:
    """Sets the global dtype policy (None restores the ``floatx`` one).

    >>> import retrograd as rg
    >>> rg.keras.mixed_precision.set_dtype_policy("mixed_float16")
    >>> rg.keras.layers.Dense(2).compute_dtype
    'float16'
    >>> rg.keras.mixed_precision.set_dtype_policy(None)
    """
    _GLOBAL[0] = None if policy is None else get(policy)


set_global_policy = set_dtype_policy
