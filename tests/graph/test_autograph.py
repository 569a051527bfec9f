"""AutoGraph: every construct runs eagerly and under ``function`` with the same results and
the same gradients; unsupported uses are errors that name the construct and its line."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import retrograd as tf
from retrograd.graph.autograph.transformer import AutoGraphError


def if_else(x):
    if x > 0:  # noqa: SIM108 (the statement is what is tested)
        y = x * x
    else:
        y = -x
    return y


def if_elif_else(x):
    if x > 2.0:
        y = x * 3.0
    elif x > 0.0:
        y = x * x
    else:
        y = tf.exp(x)
    return y


def if_without_else(x):
    y = x
    if tf.reduce_sum(x) > 0:
        y = y * 2.0
    return y


def early_return(x):
    if x > 0:
        return x * x
    return -x


def while_tensor(x):
    y = x
    while y < 10.0:
        y = y * 2.0
    return y


def for_range_tensor(x, n):
    s = x
    for i in range(n):
        s = s * x + tf.cast(i, tf.float32)
    return s


def for_tf_range(x, n):
    s = 0.0
    for i in tf.range(n):
        s += x * tf.cast(i, tf.float32)
    return s


def for_over_tensor(v):
    s = 0.0
    for e in v:
        if e > 0:
            s += e * e
    return s


def while_break(x):
    y = x
    i = 0
    while i < 10:
        y = y * 1.5
        if y > 5.0:
            break
        i += 1
    return y


def for_continue(v):
    s = 0.0
    for e in v:
        if e < 0:
            continue
        s += e
    return s


def return_in_loop(v):
    for e in v:
        if e > 1.0:
            return e * 2.0
    return tf.reduce_sum(v)


def logical_ops(x):
    if x > 0 and x < 2:
        y = x
    elif not x > -1 or x > 5:
        y = x * 3.0
    else:
        y = x * x
    return y


def conditional_expression(x):
    return x * x if x > 0 else -x


def _helper(x):
    if x > 1.0:
        return x * 10.0
    return x


def calls_user_function(x):
    return _helper(x) + 1.0


def python_conditions_stay_python(x, steps=3, double=True):
    for _ in range(steps):  # a Python loop: unrolled
        x = x * 1.1
    if double:  # a Python condition: only this branch is traced
        x = x * 2.0
    return x


def nested_loops(x, n):
    s = x
    i = 0
    while i < n:
        j = 0
        while j < i:
            s = s + x
            j += 1
        i += 1
    return s


@dataclass
class Case:
    fn: Callable
    inputs: list
    differentiate: bool = True

    @property
    def id(self) -> str:
        return self.fn.__name__


def _c(*values: Any) -> list:
    return [tf.constant(v) for v in values]


CASES = [
    Case(if_else, _c(1.5)),
    Case(if_else, _c(-0.5)),
    Case(if_elif_else, _c(3.0)),
    Case(if_elif_else, _c(1.0)),
    Case(if_elif_else, _c(-1.0)),
    Case(if_without_else, _c([1.0, -0.5])),
    Case(if_without_else, _c([-1.0, 0.5])),
    Case(early_return, _c(2.0)),
    Case(early_return, _c(-2.0)),
    Case(while_tensor, _c(1.5)),
    Case(for_range_tensor, _c(1.2, 3)),
    Case(for_tf_range, _c(1.2, 4)),
    Case(for_over_tensor, _c([1.0, -2.0, 3.0])),
    Case(while_break, _c(1.0)),
    Case(for_continue, _c([1.0, -2.0, 3.0])),
    Case(return_in_loop, _c([0.5, 1.5, 3.0])),
    Case(return_in_loop, _c([0.5, 0.25])),
    Case(logical_ops, _c(1.0)),
    Case(logical_ops, _c(-2.0)),
    Case(logical_ops, _c(0.0)),
    Case(conditional_expression, _c(2.0)),
    Case(conditional_expression, _c(-2.0)),
    Case(calls_user_function, _c(2.0)),
    Case(calls_user_function, _c(0.5)),
    Case(python_conditions_stay_python, _c(2.0)),
    Case(nested_loops, _c(1.0, 4)),
]


def _run(fn: Callable, inputs: list) -> tuple:
    with tf.GradientTape() as tape:
        tape.watch(inputs[0])
        y = fn(*inputs)
    return y, tape.gradient(y, inputs[0])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_each_construct_gives_eager_results_and_gradients_when_traced(case):
    eager_y, eager_grad = _run(case.fn, case.inputs)
    traced = tf.function(case.fn)
    traced_y, traced_grad = _run(traced, case.inputs)
    np.testing.assert_allclose(traced_y.numpy(), eager_y.numpy(), rtol=1e-6)
    assert traced_y.dtype == eager_y.dtype
    if eager_grad is None:
        assert traced_grad is None
    else:
        np.testing.assert_allclose(traced_grad.numpy(), eager_grad.numpy(), rtol=1e-6)


def test_one_trace_serves_both_branches_of_a_tensor_condition():
    traced = tf.function(if_elif_else)
    for x in (3.0, 1.0, -1.0):
        np.testing.assert_allclose(
            traced(tf.constant(x)).numpy(), if_elif_else(tf.constant(x)).numpy(), rtol=1e-6
        )
    assert traced.experimental_get_tracing_count() == 1


def test_print_runs_while_traced_and_tf_print_at_every_call(capsys):
    # TensorFlow's AutoGraph leaves print as Python's (it converts it only with the optional
    # BUILTIN_FUNCTIONS feature): it shows the graph tensor once, when the function is traced.
    @tf.function
    def shout(x):
        print("x is", type(x).__name__, x.shape)
        tf.print("value", x)
        return x + 1.0

    shout(tf.constant(1.0))
    shout(tf.constant(2.0))
    printed = capsys.readouterr()
    assert printed.out == "x is SymbolicTensor ()\n"
    assert printed.err == "value 1\nvalue 2\n"  # (tf.print's stream: stderr)


def test_a_variable_set_in_one_branch_only_is_named():
    def one_branch(x):
        if x > 0:
            y = x
        return y

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        tf.function(one_branch)(tf.constant(1.0))


def test_a_python_object_changed_by_a_graph_loop_is_named_with_its_line():
    def appends(n):
        seen = []
        i = 0
        while i < n:
            seen = seen + [i]
            i += 1
        return i

    line = inspect.getsourcelines(appends)[1] + 3
    with pytest.raises(TypeError, match=f"'seen' holds a Python list .* line {line}"):
        tf.function(appends)(tf.constant(3))


def test_a_generator_is_refused_naming_yield_and_its_line():
    def generator(x):
        yield x

    line = inspect.getsourcelines(generator)[1] + 1
    with pytest.raises(AutoGraphError, match=f"`yield`.*line {line}"):
        tf.function(generator)(tf.constant(1.0))


def test_do_not_convert_and_autograph_false_keep_python_semantics():
    @tf.autograph.experimental.do_not_convert
    def plain(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="as a Python bool"):
        tf.function(plain)(tf.constant(1.0))
    with pytest.raises(TypeError, match="as a Python bool"):
        tf.function(early_return, autograph=False)(tf.constant(1.0))


def test_tracebacks_point_at_the_users_lines():
    def fails(x):
        if x > 0:
            raise RuntimeError("inside the true branch")
        return x

    line = inspect.getsourcelines(fails)[1] + 2
    with pytest.raises(RuntimeError) as info:
        tf.function(fails)(tf.constant(1.0))
    frames = traceback.extract_tb(info.value.__traceback__)
    assert (frames[-1].filename, frames[-1].lineno) == (__file__, line)


def test_to_code_and_to_graph():
    code = tf.autograph.to_code(if_else)
    assert "ag__.if_stmt" in code and code.startswith("def if_else(x):")
    converted = tf.autograph.to_graph(if_else)
    assert converted(tf.constant(2.0)).numpy() == 4.0  # eagerly: plain Python
    assert tf.function(converted, autograph=False)(tf.constant(-2.0)).numpy() == 2.0


def _seed_002_sign_program(differentiable_sign) -> None:
    """Seed 002's last two cells, as written."""
    x = tf.constant(3.0, dtype=tf.float32)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = differentiable_sign(x)
        loss = tf.nn.l2_loss(y - tf.constant(-1.0))

    tf.print(y)
    tf.print(tape.gradient(y, x))
    tf.print(loss)
    tf.print(tape.gradient(loss, x))

    x = tf.Variable(-1.0)
    opt = tf.keras.optimizers.Adam(1e-1)

    def train_step():
        with tf.GradientTape() as tape:
            y = differentiable_sign(x)
            loss = tf.nn.l2_loss(y - tf.constant(1.0))
        grads = tape.gradient(loss, x)
        opt.apply_gradients(zip([grads], [x]))
        return loss, y, grads

    for i in range(100):
        loss, y, grads = train_step()
        if i % 10 == 0:
            tf.print(i, loss, grads, x, y)


def test_seed_002_sign_with_function_uncommented_prints_the_eager_numbers(capsys):
    @tf.custom_gradient
    def eager_sign(x):
        tf.debugging.assert_rank(x, 0)

        def grad(upstream):
            dy_dx = tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))
            return upstream * dy_dx

        if x > tf.constant(0.0):
            return tf.constant(1.0), grad
        else:
            return tf.constant(-1.0), grad

    @tf.function
    @tf.custom_gradient
    def differentiable_sign(x):
        tf.debugging.assert_rank(x, 0)

        def grad(upstream):
            dy_dx = tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))
            return upstream * dy_dx

        if x > tf.constant(0.0):
            return tf.constant(1.0), grad
        else:
            return tf.constant(-1.0), grad

    _seed_002_sign_program(eager_sign)
    eager = capsys.readouterr().err
    _seed_002_sign_program(differentiable_sign)
    assert capsys.readouterr().err == eager
    assert eager.startswith("1\n0.0451766551\n2\n0.0903533101\n0 2 -0.39322")


def test_branches_and_loops_that_assign_variables_run_once():
    v = tf.Variable(0.0)

    def count(n, x):
        i = 0
        while i < n:  # a While op: stateful, it runs though its outputs are unused
            v.assign_add(1.0)
            i += 1
        if x > 0:  # an If op: stateful
            v.assign_add(10.0)
        return v.read_value() * x

    traced = tf.function(count)
    with tf.GradientTape() as tape:
        x = tf.constant(2.0)
        tape.watch(x)
        y = traced(tf.constant(3), x)
    assert v.numpy() == 13.0 and y.numpy() == 26.0
    assert tape.gradient(y, x).numpy() == 13.0
    ops = {op.type for op in traced.get_concrete_function(tf.constant(3), x).graph.get_operations()}
    assert {"While", "If"} <= ops
    v.assign(0.0)
    assert count(tf.constant(3), tf.constant(-1.0)).numpy() == -3.0 and v.numpy() == 3.0


def test_len_of_a_tensor_and_a_return_in_one_branch_only():
    def total(x):
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return s

    assert tf.function(total)(tf.constant([1.0, 2.0, 3.0])).numpy() == 6.0

    def one_return(x):
        if x > 0:
            return x

    line = inspect.getsourcelines(one_return)[1] + 1
    with pytest.raises(ValueError, match=f"`return` inside the if at line {line}"):
        tf.function(one_return)(tf.constant(1.0))


def test_a_tensorflow_program_using_autograph_prints_what_tensorflow_prints(capsys):
    from pathlib import Path

    from retrograd.compat.runner import run_script

    data = Path(__file__).resolve().parent / "data"
    run_script(str(data / "autograph_program.py"))
    assert capsys.readouterr().out == (data / "autograph_program.golden").read_text()


def test_callable_objects_and_methods_of_user_classes_are_converted():
    class Clip:
        def __init__(self, limit):
            self.limit = limit

        def __call__(self, x):
            if x > self.limit:
                x = x * 0.0 + self.limit
            return x

        def twice(self, x):
            if x < 0:
                return -2.0 * x
            return 2.0 * x

    clip = Clip(1.0)

    @tf.function
    def f(x):
        return clip(x) + clip.twice(x)

    assert f(tf.constant(3.0)).numpy() == 7.0
    assert f(tf.constant(-3.0)).numpy() == 3.0


def test_a_function_without_source_is_traced_as_written():
    namespace: dict = {}
    exec("def f(x):\n    return x * 2.0\n", namespace)  # no source file to convert
    assert tf.function(namespace["f"])(tf.constant(2.0)).numpy() == 4.0
