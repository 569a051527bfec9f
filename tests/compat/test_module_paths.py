"""TensorFlow's module paths under ``retrograd run``: private modules programs import,
graph ops exposing what programs read, and plain AttributeErrors for missing names."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat.runner import MODULES, tensorflow_alias


def test_every_module_path_in_the_table_imports():
    with tensorflow_alias():
        for path in MODULES:
            importlib.import_module(path)


def test_private_paths_resolve_to_retrograd():
    with tensorflow_alias():
        from tensorflow.python.framework import constant_op, dtypes, ops
        from tensorflow.python.ops import array_ops, gen_math_ops, gen_nn_ops, math_ops, nn_ops

        assert ops._gradient_registry.lookup("MatMul") is rg.gradient_registry.lookup("MatMul")
        assert ops.RegisterGradient is rg.RegisterGradient and ops.Graph is rg.Graph
        assert dtypes.float32 is rg.float32 and constant_op.constant is rg.constant
        assert gen_math_ops.mat_mul is rg.matmul and math_ops.reduce_sum is rg.reduce_sum
        assert array_ops.reshape is rg.reshape and nn_ops.relu is rg.nn.relu
        assert gen_nn_ops.relu_grad(
            rg.constant([1.0, 1.0]), rg.constant([-1.0, 2.0])
        ).numpy().tolist() == [0.0, 1.0]


def test_graph_ops_expose_what_programs_read():
    g = rg.Graph()
    with g.as_default():
        a = rg.constant([[1.0, 2.0]])
        c = rg.matmul(a, a, transpose_b=True, name="prod")
        w = rg.compat.v1.Variable(1.0, name="w")
    op = c.op
    assert (op.type, op.name, op.op_def.name) == ("MatMul", "prod", "MatMul")
    assert op.inputs[0] is a and op.outputs[0] is c and c.graph is g
    assert op.get_attr("transpose_b") is True
    assert w.op.name == "w" and w.initializer.type == "AssignVariableOp"


def test_missing_names_say_retrograd_does_not_implement_them():
    with tensorflow_alias(tf1=True):
        import tensorflow as tf

        with pytest.raises(AttributeError, match=r"retrograd does not implement tf\.contrib"):
            tf.contrib
        with pytest.raises(
            AttributeError, match=r"retrograd does not implement tf\.nn\.no_such_op"
        ):
            tf.nn.no_such_op
        assert tf.nn is tf.nn and tf.Session is rg.compat.v1.Session
    with tensorflow_alias():
        import tensorflow as tf

        with pytest.raises(AttributeError, match=r"retrograd does not implement tf\.foo"):
            tf.foo
        assert tf.compat.v1.placeholder is rg.compat.v1.placeholder
        assert np.isclose(float(tf.math.log(rg.constant(np.e))), 1.0)


def test_tf_app_run_calls_the_programs_main_and_exits_with_its_result(tmp_path):
    from tests.programs.running import run_program

    script = tmp_path / "app.py"
    script.write_text(
        "import tensorflow as tf\n"
        "def main(argv):\n"
        "    print('main', argv[1:], tf.app is not None)\n"
        "    return 3\n"
        "if __name__ == '__main__':\n"
        "    tf.app.run()\n"
    )
    done = run_program(script, tf1=True)
    assert done.returncode == 3, done.stderr
    assert done.stdout == "main [] True\n"


def test_standalone_keras_is_tf_keras_while_a_program_runs():
    import sys

    with tensorflow_alias():
        import keras
        from keras import layers

        assert keras.layers.Dense is rg.keras.layers.Dense and layers.LSTM is rg.keras.layers.LSTM
        assert keras.random.SeedGenerator is rg.keras.random.SeedGenerator
        with pytest.raises(AttributeError, match="retrograd does not implement keras.nothing"):
            keras.nothing  # noqa: B018
    assert "keras" not in sys.modules


@pytest.fixture
def tensorflow_is_retrograd():
    """``sys.modules["tensorflow"] = retrograd``, as a program may do without ``retrograd
    run``; undone after the test (the import system also sets ``retrograd.python``)."""
    import sys

    saved = {n: sys.modules.pop(n) for n in list(sys.modules) if n.split(".")[0] == "tensorflow"}
    ours = {n: m for n, m in sys.modules.items() if n.split(".")[0] == "retrograd"}
    before = {n: set(vars(m)) for n, m in ours.items()}
    sys.modules["tensorflow"] = rg
    try:
        yield
    finally:
        for name in [n for n in sys.modules if n.split(".")[0] == "tensorflow"]:
            del sys.modules[name]
        sys.modules.update(saved)
        for name, module in ours.items():  # submodules the import system set on parents
            for attribute in set(vars(module)) - before[name]:
                delattr(module, attribute)


def test_private_paths_import_when_tensorflow_is_only_aliased(tensorflow_is_retrograd):
    import tensorflow as tf
    from tensorflow.python import tf2
    from tensorflow.python.eager import backprop
    from tensorflow.python.framework import dtypes, ops
    from tensorflow.python.ops import (
        control_flow_util,
        custom_gradient,
        gradients_impl,
        variable_scope,
    )
    from tensorflow.python.util import tf_inspect

    assert tf is rg and tf2.enabled() and backprop.GradientTape is rg.GradientTape
    assert dtypes.float64 is rg.float64 and custom_gradient.custom_gradient is rg.custom_gradient
    assert ops.convert_to_tensor is rg.convert_to_tensor
    assert ops.get_default_graph is rg.get_default_graph
    assert ops.control_dependencies is rg.compat.v1.control_dependencies
    assert "Relu" in ops._gradient_registry._registry
    assert ops._gradient_registry._registry["Relu"]["type"] is rg.gradient_registry.lookup("Relu")
    assert gradients_impl.gradients_v2 is rg.gradients
    assert variable_scope.variable_scope is rg.compat.v1.variable_scope
    assert not control_flow_util.IsInWhileLoop(None)
    assert tf_inspect.getfullargspec(rg.nn.relu).args == ["features", "name"]


def test_every_table_path_imports_from_its_parent_when_aliased(tensorflow_is_retrograd):
    import importlib

    for path in [p for p in MODULES if p.startswith("tensorflow.")]:
        parent, _, child = path.rpartition(".")
        module = importlib.import_module(path)
        assert getattr(importlib.import_module(parent), child) is module, path
    with pytest.raises(
        ImportError, match="retrograd does not implement the module 'tensorflow.contrib'"
    ):
        import tensorflow.contrib  # noqa: F401


def test_the_aliasing_finder_is_inert_otherwise():
    import sys

    assert "tensorflow" not in sys.modules
    with pytest.raises(ImportError, match="No module named 'tensorflow'"):
        import tensorflow.python  # noqa: F401


def test_tf2_behaviour_follows_v2_behaviour_switches():
    from retrograd.compat.tf_python import tf2

    rg.compat.v1.disable_v2_behavior()
    try:
        assert not tf2.enabled()
    finally:
        rg.compat.v1.enable_v2_behavior()
    assert tf2.enabled()
