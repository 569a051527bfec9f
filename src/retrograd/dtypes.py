"""Data types (TensorFlow's ``tf.dtypes``): DType objects over NumPy dtypes.

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
)

__all__ = [
    "DType",
    "as_dtype",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
    "complex64",
    "complex128",
    "half",
    "double",
]
