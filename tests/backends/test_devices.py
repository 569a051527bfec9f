"""Array backends and devices: where tensors live (``core.backends``), ``tf.device``'s
placement and soft placement, ``Tensor.device``, host copies, ops refusing inputs of two
devices, and ``tf.config`` listing what is present — on the strict array type, which
behaves towards NumPy as CuPy's arrays do."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import retrograd as tf
from retrograd.core import backends
from tests.backends import strict_array
from tests.backends.strict_array import StrictArray

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
STRICT = "/job:localhost/replica:0/task:0/device:STRICT:0"


@pytest.fixture(autouse=True)
def _strict_device():
    with strict_array.installed():
        yield


def test_numpy_values_compute_with_numpy():
    assert backends.namespace_of(np.ones(2)) is np
    assert backends.namespace_of(np.float32(1.0)) is np
    assert backends.device_of(np.ones(2)) == ("CPU", 0)
    assert tf.constant([1.0]).device == CPU


def test_a_strict_array_names_its_namespace_and_device():
    x = StrictArray(np.ones(2))
    assert backends.namespace_of(x) is strict_array.namespace
    assert backends.device_name(x) == STRICT
    assert type(backends.namespace_of(x).zeros(3)) is StrictArray
    assert type(np.zeros(3, like=x)) is StrictArray
    np.testing.assert_array_equal(backends.to_host(x), np.ones(2))


def test_an_unknown_array_type_is_refused_naming_the_registry():
    with pytest.raises(TypeError, match="register_device"):
        backends.device_of(object())


@pytest.mark.parametrize(
    "name", ["/device:STRICT:0", "/job:localhost/replica:0/task:0/device:STRICT:0"]
)
def test_tensors_made_from_host_data_inside_device_live_there(name):
    with tf.device(name):
        made = [
            tf.constant([1.0, 2.0]),
            tf.constant(3.0),
            tf.convert_to_tensor(np.arange(3)),
            tf.convert_to_tensor([[1, 2]]),
            tf.Variable([1.0, 2.0]),
            tf.constant(1.0, shape=[2, 2]),
        ]
    for t in made:
        assert t.device == STRICT, t
        assert type(t._value) is StrictArray


def test_ops_compute_where_their_inputs_live_and_numpy_copies_to_the_host():
    with tf.device("/device:STRICT:0"):
        x = tf.constant([1.0, 2.0])
    y = x * 2.0 + 1.0  # (outside the block: computed where x lives; Python scalars go along)
    assert y.device == STRICT and type(y._value) is StrictArray
    host = y.numpy()
    assert type(host) is np.ndarray and host.tolist() == [3.0, 5.0]
    assert np.asarray(y).tolist() == [3.0, 5.0]
    assert float(tf.reduce_sum(y)) == 8.0
    assert "[3. 5.]" in str(y) and "array([3., 5.]" in repr(y)


def test_numpy_scalars_go_with_any_device():
    with tf.device("/device:STRICT:0"):
        x = tf.constant([1.0, 2.0])
    assert (x + tf.constant(1.0)).device == STRICT  # a CPU scalar tensor holds a NumPy scalar


def test_inputs_on_two_devices_are_an_error_naming_the_op_and_both():
    with tf.device("/device:STRICT:0"):
        x = tf.constant([1.0, 2.0])
    y = tf.constant([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2:.*STRICT:0 and .*CPU:0"):
        x + y
    with pytest.raises(tf.errors.InvalidArgumentError, match="ConcatV2:.*STRICT:0 and .*CPU:0"):
        tf.concat([x, y], 0)


def test_an_absent_device_gives_the_cpu_as_soft_placement_does():
    # TensorFlow 2.21 eager on a machine without a GPU: every one of these is on CPU:0.
    for name in ["/GPU:0", "/device:GPU:0", "gpu:0", "/GPU:3", "/TPU:0", "/device:STRICT:7", None]:
        with tf.device(name):
            assert tf.constant(1.0).device == CPU, name
            assert tf.Variable(1.0).device == CPU, name


def test_nested_device_blocks_restore_the_outer_device():
    with tf.device("/device:STRICT:0"):
        with tf.device("/CPU:0"):
            assert tf.constant(1.0).device == CPU
        assert tf.constant(1.0).device == STRICT
        with tf.device(None):
            assert tf.constant(1.0).device == CPU
    assert tf.constant(1.0).device == CPU
    assert backends.current_device() is None


def test_the_current_device_is_per_thread():
    seen = []
    entered, done = threading.Event(), threading.Event()

    def other():
        entered.wait()
        seen.append(tf.constant(1.0).device)
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with tf.device("/device:STRICT:0"):
        entered.set()
        done.wait()
    thread.join()
    assert seen == [CPU]


def test_a_variable_keeps_its_device_when_assigned_host_values():
    with tf.device("/device:STRICT:0"):
        v = tf.Variable([1.0, 2.0])
    v.assign([3.0, 4.0])
    v.assign_add(np.array([1.0, 1.0], np.float32))
    assert v.device == STRICT and v.numpy().tolist() == [4.0, 5.0]


def test_config_lists_the_devices_present():
    assert tf.config.list_physical_devices("GPU") == []  # (no GPU on the machines CI uses)
    strict = tf.config.list_physical_devices("STRICT")
    assert [d.name for d in strict] == ["/physical_device:STRICT:0"]
    assert tf.config.list_physical_devices("CPU")[0].name == "/physical_device:CPU:0"


def test_the_strict_type_refuses_implicit_conversion_and_numpy_operands():
    x = StrictArray(np.ones(2))
    assert not isinstance(x, np.ndarray)
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(x)
    with pytest.raises(TypeError, match="mixed"):
        x + np.ones(2)
    assert type(x + np.float32(1.0)) is StrictArray  # (NumPy scalars are scalars)
    assert type(np.add.reduce(x)) is StrictArray and float(np.add.reduce(x)) == 2.0
