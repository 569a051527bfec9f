"""Tensor: creation, conversion rules, Python protocols and operators."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import retrograd as rg


@pytest.mark.parametrize(
    "value, dtype",
    [
        (1.0, rg.float32), (1, rg.int32), (2**40, rg.int64), (True, rg.bool), (1j, rg.complex128),
        ([1, 2.5], rg.float32), ([[1, 2]], rg.int32), ([], rg.float32), (np.array([1.5]), rg.float64),
        (np.array([1]), rg.int64), (np.float64(1.5), rg.float64), (np.float32(1.5), rg.float32),
    ],
)  # fmt: skip
def test_default_dtypes_follow_tensorflow(value, dtype):
    assert rg.constant(value).dtype == dtype
    assert rg.convert_to_tensor(value).dtype == dtype


@pytest.mark.parametrize(
    "value, dtype, match",
    [
        (1.5, rg.int32, "losing"),
        ([1, 2.5], rg.int32, "losing"),
        (1, rg.bool, "losing"),
        (1j, rg.float32, "losing"),
        (300, rg.int8, "range"),
    ],
)
def test_python_values_must_fit_the_requested_dtype(value, dtype, match):
    with pytest.raises(TypeError, match=match):
        rg.convert_to_tensor(value, dtype=dtype)
    with pytest.raises(TypeError):
        rg.constant(value, dtype=dtype)


def test_numpy_arrays_are_cast_by_constant_but_only_safely_converted_elsewhere():
    assert rg.constant(np.array([1.7]), dtype=rg.int32).numpy().tolist() == [1]
    assert rg.convert_to_tensor(np.array([1.5]), dtype=rg.float32).dtype == rg.float32
    with pytest.raises(TypeError, match="losing"):
        rg.convert_to_tensor(np.array([1.5]), dtype=rg.int32)


@pytest.mark.parametrize(
    "value, match",
    [
        (None, "None"),
        ("text", "numeric"),
        ([[1.0], [1.0, 2.0]], "non-rectangular"),
        (2**70, "out-of-range"),
    ],
)
def test_unconvertible_values(value, match):
    with pytest.raises((TypeError, ValueError), match=match):
        rg.constant(value)


def test_constant_shape_broadcasts_or_reshapes():
    assert rg.constant(1.0, shape=[2, 2]).numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert rg.constant([1, 2, 3, 4], shape=(2, 2)).shape == (2, 2)
    with pytest.raises(TypeError, match="elements"):
        rg.constant([1.0, 2.0, 3.0], shape=[2, 2])


def test_converting_a_tensor_checks_its_dtype():
    t = rg.constant(1.0)
    assert rg.convert_to_tensor(t) is t
    with pytest.raises(ValueError, match="requested dtype float64"):
        rg.convert_to_tensor(t, dtype=rg.float64)
    with pytest.raises(TypeError, match="Expected tensor"):
        rg.constant(t, dtype=rg.float64)


def test_lists_of_tensors_are_stacked_differentiably():
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.convert_to_tensor([x, x * x, 1.0]))
    assert tape.gradient(y, x).numpy() == 5.0


def test_constant_copies_numpy_input():
    a = np.array([1.0, 2.0])
    t = rg.constant(a)
    a[0] = 99.0
    assert t.numpy()[0] == 1.0


def test_numpy_gives_scalars_and_writable_copies_asarray_a_read_only_view():
    # TensorFlow's: .numpy() is a copy the caller owns; np.asarray(t) is read-only.
    t = rg.constant([1.0, 2.0])
    assert isinstance(rg.constant(2.0).numpy(), np.float32)
    arr = t.numpy()
    arr[0] = 5.0
    assert t.numpy()[0] == 1.0
    view = np.asarray(t)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 5.0
    assert (
        np.asarray(rg.constant(3.0)).shape == ()
        and not np.asarray(rg.constant(3.0)).flags.writeable
    )
    copied = np.array(t)
    copied[0] = 7.0
    assert copied.tolist() == [7.0, 2.0] and t.numpy().tolist() == [1.0, 2.0]
    assert np.asarray(rg.constant([1.0]), dtype=np.float64).dtype == np.float64
    v = rg.Variable([1.0, 2.0])
    snapshot = v.numpy()
    snapshot[0] = 9.0
    assert v.numpy().tolist() == [1.0, 2.0]


def test_writing_through_asarray_cannot_change_saved_values():
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(x * x)
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(x)[:] = 10.0
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]


def test_properties_and_python_protocols():
    x = rg.constant([[1.0, 2.0, 3.0]])
    assert x.shape == (1, 3) and x.shape.as_list() == [1, 3] and x.ndim == 2 and len(x) == 1
    assert x.get_shape().rank == 2 and x.shape.num_elements() == 3
    s = rg.constant(2.5)
    assert float(s) == 2.5 and int(s) == 2 and bool(s) and complex(s) == 2.5
    assert [10, 20, 30][rg.constant(1)] == 20
    with pytest.raises(TypeError, match="integer tensors"):
        [1, 2][s]
    with pytest.raises(TypeError, match="len"):
        len(s)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(rg.constant([True, False]))
    assert bool(rg.constant([True]))


def test_repr_str_and_format():
    assert repr(rg.constant(6.0)) == "<retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert repr(rg.constant([[1.0, 2.0], [3.0, 4.0]])) == (
        "<retrograd.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
        "array([[1., 2.],\n       [3., 4.]], dtype=float32)>"
    )
    assert str(rg.constant([1.0, 2.0])) == "retrograd.Tensor([1. 2.], shape=(2,), dtype=float32)"
    assert f"{rg.constant(2.0)} {rg.constant([1.0, 2.0])} {rg.constant(3)}" == "2.0 [1. 2.] 3"
    assert f"{rg.constant(2.0):.3f}" == "2.000"


def test_hash_is_identity_and_eq_is_elementwise():
    a, b = rg.constant(1.0), rg.constant(1.0)
    assert hash(a) != hash(b) and len({a, b}) == 2 and {a: 1}[a] == 1
    assert (a == b).numpy() and not (a != b).numpy()
    assert (a == None) is False and (a != None) is True  # noqa: E711
    assert not (rg.constant([1.0, 2.0]) == rg.constant([1.0, 2.0, 3.0])).numpy()
    assert a.ref() == a.ref() and a.ref() != b.ref() and a.ref().deref() is a


def test_operators_with_python_and_numpy_operands():
    x = rg.constant([1.0, 2.0])
    assert (x + 1).numpy().tolist() == [2.0, 3.0] and (1 - x).numpy().tolist() == [0.0, -1.0]
    assert (2 * x).numpy().tolist() == [2.0, 4.0] and (x / 2).numpy().tolist() == [0.5, 1.0]
    assert (2 / x).numpy().tolist() == [2.0, 1.0] and (x**2).numpy().tolist() == [1.0, 4.0]
    assert (2**x).numpy().tolist() == [2.0, 4.0] and (-x).numpy().tolist() == [-1.0, -2.0]
    assert abs(-x).numpy().tolist() == [1.0, 2.0] and (x // 2).numpy().tolist() == [0.0, 1.0]
    assert (x % 2).numpy().tolist() == [1.0, 0.0] and (x < 2).numpy().tolist() == [True, False]
    assert (x + [1, 2]).numpy().tolist() == [2.0, 4.0]
    result = np.ones(2) * x  # NumPy defers to the tensor
    assert isinstance(result, rg.Tensor) and result.dtype == rg.float32
    assert isinstance(np.float64(2.0) * x, rg.Tensor)
    assert (
        x @ rg.constant([[1.0], [1.0]])
        if False
        else rg.constant([[1.0, 2.0]]) @ rg.constant([[1.0], [1.0]])
    ).numpy().tolist() == [[3.0]]


def test_mixing_tensor_dtypes_is_a_type_error_naming_the_op():
    with pytest.raises(
        TypeError, match="AddV2: x and y must have the same dtype, got float32 and float64"
    ):
        rg.constant(1.0) + rg.constant(1.0, rg.float64)
    with pytest.raises(
        TypeError, match="Mul: x and y must have the same dtype, got int32 and float32"
    ):
        rg.multiply(rg.constant(1), rg.constant(1.0))
    with pytest.raises(TypeError, match="2.5"):
        rg.constant(1) * 2.5


def test_tensors_are_immutable_values():
    x = rg.constant([1.0])
    assert copy.copy(x) is x and copy.deepcopy(x) is x
    with pytest.raises(TypeError):
        x[0] = 2.0
    assert pickle.loads(pickle.dumps(x)).numpy().tolist() == [1.0]
    assert rg.is_tensor(x) and not rg.is_tensor(np.ones(1))


def test_graph_attributes_explain_eager_mode():
    with pytest.raises(AttributeError, match="eager execution"):
        rg.constant(1.0).op


def test_an_empty_value_converts_to_any_dtype():  # (TensorFlow: nothing is lost)
    assert rg.convert_to_tensor([], dtype=rg.int32).dtype.name == "int32"
    assert rg.convert_to_tensor([[]], dtype=rg.int64).shape.as_list() == [1, 0]
    assert rg.convert_to_tensor(np.zeros(0, np.float32), dtype=rg.int32).dtype.name == "int32"
    with pytest.raises(TypeError, match="without losing values"):
        rg.convert_to_tensor([1.5], dtype=rg.int32)
