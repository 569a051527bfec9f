"""TensorFlow 1 shapes under ``disable_v2_behavior()``: ``shape[i]`` is a Dimension
(``x.get_shape()[1].value``), shapes print as ``(?, 4)``, Dimensions are accepted as shape
arguments; each case is compared with what real TensorFlow gave (data/tf1_shape_goldens.json,
made by data/make_tf1_shape_goldens.py). As in TensorFlow the setting is a flag: every
caller, the library's own code too, gets Dimensions; ops and shape inference still work."""

from __future__ import annotations

import json
import pathlib
import threading

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat.tf_python.framework import tensor_shape
from retrograd.core.shapes import TensorShape, V1TensorShape
from tests.compat.data.tf1_shape_cases import CASES, KERAS_PROBE
from tests.ops.table import random_weights, weighted_total
from tests.ops.test_op_coverage import TABLES

GOLDENS = json.loads(
    (pathlib.Path(__file__).parent / "data" / "tf1_shape_goldens.json").read_text()
)
tf = rg.compat.v1


@pytest.fixture
def v1_scope():
    """TensorFlow 1 behaviour (graph mode, v1 shapes) on a fresh graph; v2 again after."""
    tf.disable_v2_behavior()
    try:
        with rg.Graph().as_default():
            x = tf.placeholder(rg.float32, [None, 4])
            scope = {
                "tf": tf,
                "D": tf.Dimension,
                "x": x,
                "s": x.get_shape(),
                "y": rg.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
                "tensor_shape": tensor_shape,
                "keras": rg.keras,
            }
            exec(KERAS_PROBE, scope)  # (the probe's source text, shared with the golden maker)
            yield scope
    finally:
        tf.enable_v2_behavior()


# retrograd's classes for what TensorFlow's one TensorShape class does in each case
_TF_TYPE_NAMES = {"V1TensorShape": "TensorShape", "_UnknownRankShape": "TensorShape"}


def _outcome(expression: str, scope: dict) -> list:
    try:
        value = eval(expression, scope)
    except Exception as error:
        return ["error", type(error).__name__]
    name = type(value).__name__
    return ["value", repr(value), _TF_TYPE_NAMES.get(name, name)]


def test_every_case_has_a_golden():
    assert sorted(GOLDENS) == sorted(CASES)


@pytest.mark.parametrize("expression", CASES)
def test_behaves_as_tensorflow_1(expression, v1_scope):
    assert _outcome(expression, v1_scope) == GOLDENS[expression]


def test_every_shape_indexes_to_dimensions_and_ops_still_work(v1_scope):
    x = v1_scope["x"]
    assert type(x.shape) is V1TensorShape
    y = rg.reduce_sum(x * 2.0, axis=1)  # shape inference and ops read shapes in either mode
    assert y.shape.as_list() == [None]
    assert type(TensorShape((None, 4))) is V1TensorShape  # whoever makes it
    assert repr(TensorShape((None, 4))[1]) == "Dimension(4)"
    assert tf.gradients(rg.reduce_sum(y), x)[0].shape.as_list() == [None, 4]


def test_eager_tensors_and_variables_show_v1_shapes_too():
    tf.disable_v2_tensorshape()
    try:
        v = rg.Variable(np.zeros((2, 3), np.float32))
        assert v.shape[1].value == 3 and v.get_shape()[0].value == 2
        assert rg.constant([1, 2]).shape[0].value == 2
        assert str(rg.constant([[1.0]]).get_shape()) == "(1, 1)"
    finally:
        tf.enable_v2_tensorshape()
    assert rg.constant([1, 2]).shape[0] == 2 and type(rg.constant([1]).shape[0]) is int


def test_v2_shapes_are_the_default_and_come_back():
    assert rg.TensorShape([None, 4])[0] is None
    tf.disable_v2_behavior()
    tf.enable_v2_behavior()
    assert rg.TensorShape([None, 4])[0] is None and str(rg.TensorShape([None])) == "(None,)"
    assert rg.executing_eagerly()


def test_the_setting_is_process_wide_as_tensorflows():
    tf.disable_v2_tensorshape()
    seen = []
    try:
        thread = threading.Thread(target=lambda: seen.append(rg.TensorShape([3])[0]))
        thread.start()
        thread.join()
    finally:
        tf.enable_v2_tensorshape()
    assert repr(seen) == "[Dimension(3)]"


def test_dims_are_dimensions_in_v2_mode_as_tensorflow_2():
    assert [d.value for d in rg.TensorShape([None, 3]).dims] == [None, 3]
    assert rg.TensorShape(None).dims is None


def test_unknown_dimensions_cannot_become_tensors():
    with pytest.raises(ValueError, match="unknown Dimension"):
        rg.convert_to_tensor(tf.Dimension(None))
    assert rg.convert_to_tensor(tf.Dimension(3)).numpy() == 3


# Every op-table row, run again under TensorFlow 1 shapes: the library reads shapes in either
# behaviour (every shape it makes then indexes to Dimensions), so the values and the tape's
# gradients are the same.
ROWS = [case for module in TABLES for case in module.CASES]


def _values_and_gradients(case) -> list:
    tensors = [rg.constant(a) for a in case.inputs()]
    with rg.GradientTape() as tape:
        tape.watch(tensors)
        outputs = rg.nest.flatten(case.fn(*tensors))
        total = weighted_total(outputs, random_weights(outputs))
    gradients = tape.gradient(total, tensors)
    found = [y.numpy() for y in outputs]
    return found + [None if g is None else rg.convert_to_tensor(g).numpy() for g in gradients]


@pytest.mark.parametrize("case", ROWS, ids=[c.id for c in ROWS])
def test_every_op_table_row_gives_the_same_values_and_gradients_under_tf1_shapes(case):
    expected = _values_and_gradients(case)
    tf.disable_v2_tensorshape()
    try:
        found = _values_and_gradients(case)
    finally:
        tf.enable_v2_tensorshape()
    assert len(found) == len(expected)
    for f, e in zip(found, expected):
        assert (f is None) == (e is None), case.id
        if e is not None:
            np.testing.assert_array_equal(f, e, err_msg=case.id)
