"""DTypes: names, properties, comparisons and conversions."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

ALL = [
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
]


@pytest.mark.parametrize("name", ALL)
def test_each_dtype_round_trips_through_names_and_numpy(name):
    dtype = getattr(rg, name)
    assert dtype.name == name and rg.as_dtype(name) is dtype
    assert (
        rg.as_dtype(dtype.as_numpy_dtype) is dtype
        and rg.as_dtype(np.dtype(dtype.as_numpy_dtype)) is dtype
    )
    assert (
        dtype == np.dtype(dtype.as_numpy_dtype)
        and dtype == name
        and hash(dtype) == hash(rg.as_dtype(name))
    )


def test_properties():
    assert rg.float32.is_floating and not rg.float32.is_integer and rg.float32.is_trainable
    assert rg.int32.is_integer and not rg.int32.is_trainable and rg.uint8.is_unsigned
    assert rg.bool.is_bool and rg.complex64.is_complex and rg.complex64.is_trainable
    assert rg.complex64.real_dtype is rg.float32 and rg.complex128.real_dtype is rg.float64
    assert rg.float32.real_dtype is rg.float32 and rg.float32.size == 4
    assert (
        rg.int8.min == -128 and rg.uint8.max == 255 and rg.float16.max == np.finfo(np.float16).max
    )
    assert rg.half is rg.float16 and rg.double is rg.float64


def test_repr_and_inequality():
    assert repr(rg.float32) == "tf.float32" and str(rg.int32) == "<dtype: 'int32'>"
    assert rg.float32 != rg.float64 and rg.float32 != "not a dtype"


def test_unknown_dtypes_are_a_type_error():
    with pytest.raises(TypeError, match="Cannot convert"):
        rg.as_dtype("float8")
    with pytest.raises(TypeError):
        rg.as_dtype(object)
