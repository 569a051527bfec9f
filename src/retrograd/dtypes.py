"""Data types (TensorFlow's ``tf.dtypes``): DType objects over NumPy dtypes, and the casts.

>>> import retrograd as rg
>>> rg.dtypes.as_dtype("int64") is rg.dtypes.int64
True
"""

from retrograd.core.dtypes import (
    DType,
    as_dtype,
    bool,
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    variant,
)
from retrograd.ops.cast_ops import saturate_cast
from retrograd.ops.complex_ops import complex
from retrograd.ops.math_ops import cast

# TensorFlow's quantized types: retrograd has none (NumPy has no quantized arithmetic).
QUANTIZED_DTYPES: frozenset = frozenset()

__all__ = [
    "DType", "QUANTIZED_DTYPES", "as_dtype", "bool", "cast", "complex", "complex64",
    "complex128", "double", "float16", "float32", "float64", "half", "int8", "int16", "int32",
    "int64", "saturate_cast", "uint8", "uint16", "uint32", "uint64", "variant",
]  # fmt: skip
