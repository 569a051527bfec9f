# ruff: noqa: F841, E402 (the probes compute values for their side effects on tapes)
"""Makes custom_gradient_goldens.json: TensorFlow's answers to the questions issue 15 asks
(the custom-gradient contract, watched variables, override maps, numpy_function).

Run with real TensorFlow (never imported by the tests):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python make_custom_gradient_goldens.py
"""

import json
import re
import warnings

import numpy as np
import tensorflow as tf

out = {}


def rec(k, f):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            v = f()
        out[k] = {"value": v, "warnings": [str(x.message)[:300] for x in w]}
    except Exception as e:
        message = re.sub(r" at 0x[0-9a-f]+", "", str(e))  # no memory addresses
        out[k] = {"error": type(e).__name__, "message": message[:400]}


@tf.custom_gradient
def my_mul(a, x):
    def grad(dy):
        return dy * x, dy * a

    return a * x, grad


def c1():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = my_mul(2.0, x)
    return float(t.gradient(y, x))


rec("positional_python_float", c1)


@tf.custom_gradient
def spike(v, thr):
    def grad(dy):
        return dy, None

    return tf.cast(v > thr, tf.float32), grad


def c2():
    x = tf.constant([0.2, 0.7])
    with tf.GradientTape() as t:
        t.watch(x)
        y = spike(x, 0.5)
    return t.gradient(y, x).numpy().tolist()


rec("positional_threshold_none", c2)


@tf.custom_gradient
def kw(x, y=None):
    def grad(dy):
        return dy * 10.0

    return x * y, grad


def c3():
    x = tf.constant(2.0)
    y = tf.constant(5.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, y])
        z = kw(x, y=y)
    return [None if g is None else float(g) for g in t.gradient(z, [x, y])]


rec("kwarg_tensor_y", c3)


def c4():
    x = tf.constant(2.0)
    y = tf.constant(5.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, y])
        z = kw(x=x, y=y)
    return [None if g is None else float(g) for g in t.gradient(z, [x, y])]


rec("kwarg_all", c4)


@tf.custom_gradient
def intin(x, n):
    def grad(dy):
        return dy * tf.cast(n, tf.float32), dy * x

    return x * tf.cast(n, tf.float32), grad


def c5():
    x = tf.constant(2.0)
    n = tf.constant(3)
    with tf.GradientTape() as t:
        t.watch(x)
        y = intin(x, n)
    return float(t.gradient(y, x))


rec("int_input_float_grad", c5)


@tf.custom_gradient
def strarg(x, mode):
    def grad(dy):
        return dy * 2.0, None

    return x * 2.0, grad


def c6():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = strarg(x, "fast")
    return float(t.gradient(y, x))


rec("string_arg", c6)


@tf.custom_gradient
def fnarg(x, fn):
    def grad(dy):
        return dy * 3.0, None

    return fn(x), grad


def c6b():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = fnarg(x, lambda v: v * 3.0)
    return float(t.gradient(y, x))


rec("function_arg", c6b)


def c6c():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = strarg(x, "fast")

    @tf.custom_gradient
    def one(x, mode):
        return x * 2.0, lambda dy: dy * 2.0

    with tf.GradientTape() as t:
        t.watch(x)
        y = one(x, "fast")
    return float(t.gradient(y, x))


rec("string_arg_one_grad", c6c)

rec("cast_float", lambda: tf.cast(tf.constant(1), float).dtype.name)
rec("cast_int", lambda: tf.cast(tf.constant(1.5), int).dtype.name)
rec("cast_bool", lambda: tf.cast(tf.constant(1.5), bool).dtype.name)
rec("zeros_float", lambda: tf.zeros(2, dtype=float).dtype.name)
rec("constant_int", lambda: tf.constant(1.0, dtype=int).dtype.name)
rec("as_dtype_float", lambda: tf.as_dtype(float).name)
rec("as_dtype_int", lambda: tf.as_dtype(int).name)
rec("Variable_float", lambda: tf.Variable(1, dtype=float).dtype.name)


def w1():
    v = tf.Variable(1.0, name="v")
    with tf.GradientTape() as t:
        y = v * v
    t.gradient(y, v)
    return [x.name for x in t.watched_variables()]


rec("watched_after_gradient_nonpersistent", w1)


def w2():
    v = tf.Variable(1.0, name="v")
    u = tf.Variable(2.0, name="u")
    with tf.GradientTape(persistent=True) as t:
        y = v * v
        t.reset()
        z = u * u
    return [x.name for x in t.watched_variables()]


rec("watched_after_reset", w2)


def w3():
    v = tf.Variable(1.0, name="v")
    u = tf.Variable(2.0, name="u")
    t = tf.GradientTape(persistent=True)
    with t:
        y = v * v
    with t:
        z = u * u
    return [x.name for x in t.watched_variables()]


rec("watched_reentered", w3)


def w3b():
    v = tf.Variable(1.0, name="v")
    u = tf.Variable(2.0, name="u")
    t = tf.GradientTape()
    with t:
        y = v * v
    with t:
        z = u * u
    r = [x.name for x in t.watched_variables()]
    g = t.gradient(y, v)
    return [r, None if g is None else float(g)]


rec("watched_reentered_nonpersistent", w3b)


def w4():
    v = tf.Variable(1.0, name="v")
    with tf.GradientTape(persistent=True) as t:
        y = v * v
    t.gradient(y, v)
    return [x.name for x in t.watched_variables()]


rec("watched_after_gradient_persistent", w4)


def w5():
    v = tf.Variable(1.0, name="v")
    with tf.GradientTape() as t:
        y = v * v
    t.gradient(y, v)
    with t:
        z = v * 2
    return [[x.name for x in t.watched_variables()], float(t.gradient(z, v))]


rec("reenter_after_gradient_nonpersistent", w5)


def u1():
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2
    return t.gradient(y, x, unconnected_gradients="nonsense")


rec("unconnected_nonsense", u1)


def cap():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        c = x * 3.0

        @tf.custom_gradient
        def f(a):
            def grad(dy):
                return dy * c

            return a * c, grad

        y = f(tf.constant(1.0))
    g = t.gradient(y, x)
    return None if g is None else float(g)


rec("captured_in_rule", cap)


# overrides
@tf.RegisterGradient("GuidedReluProbe")
def _g(op, grad):
    return tf.where(grad > 0.0, grad, tf.zeros_like(grad)) * tf.cast(
        op.outputs[0] > 0.0, grad.dtype
    )


def o1():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([-1.0, 2.0])
        with g.gradient_override_map({"Relu": "GuidedReluProbe"}):
            y = tf.nn.relu(x)
        (d,) = tf.gradients(y, x, grad_ys=tf.constant([1.0, -1.0]))
        with tf.compat.v1.Session() as s:
            return s.run(d).tolist()


rec("override_map_tf_gradients", o1)


def o2():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([-1.0, 2.0])
        with g.gradient_override_map({"Relu": "GuidedReluProbe"}):
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.nn.relu(x)
            d = t.gradient(y, x, output_gradients=tf.constant([1.0, -1.0]))
        with tf.compat.v1.Session() as s:
            return s.run(d).tolist()


rec("override_map_tape_in_graph", o2)


@tf.function
def ff(x):
    g = tf.compat.v1.get_default_graph()
    with g.gradient_override_map({"Relu": "GuidedReluProbe"}):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.relu(x)
        return t.gradient(y, x, output_gradients=tf.constant([1.0, -1.0]))


rec("override_map_tape_in_function", lambda: ff(tf.constant([-1.0, 2.0])).numpy().tolist())


def o3():
    g = tf.Graph()
    with g.as_default(), g.gradient_override_map({"Rleu": "GuidedReluProbe"}):
        y = tf.nn.relu(tf.constant(1.0))
    return "ok"


rec("override_map_typo_key", o3)


@tf.function
def fmap(x):
    with tf.compat.v1.get_default_graph().gradient_override_map({"Relu": "GuidedReluProbe"}):
        return tf.nn.relu(x)


def o6():
    x = tf.constant([-1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = fmap(x)
    return t.gradient(y, x, output_gradients=tf.constant([1.0, -1.0])).numpy().tolist()


rec("override_map_in_function_tape_outside", o6)


def o4():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(1.0)
        with g.gradient_override_map({"Relu": "NoSuchGradXYZ"}):
            y = tf.nn.relu(x)
        return str(tf.gradients(y, x))


rec("override_map_unknown_value", o4)


def o5():
    def h(op, grad):
        return grad

    tf.RegisterGradient("ReRegProbe")(h)
    tf.RegisterGradient("ReRegProbe")(h)
    return "ok"


rec("register_same_function_twice", o5)


# numpy_function
def nf(a):
    return np.sin(a)


def n1():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.numpy_function(nf, [x], tf.float32)
    return [y.numpy().tolist(), t.gradient(y, x)]


rec("numpy_function_eager", n1)


@tf.function
def nfun(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.numpy_function(nf, [x], tf.float32)
    g = t.gradient(y, x)
    return y, (tf.constant(-1.0) if g is None else g)


rec("numpy_function_function", lambda: [v.numpy().tolist() for v in nfun(tf.constant([1.0, 2.0]))])


def n3():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        y = tf.numpy_function(nf, [x], tf.float32)
        d = tf.gradients(y, x)
        with tf.compat.v1.Session() as s:
            return [s.run(y, {x: [1.0, 2.0]}).tolist(), str(d), str(y.shape)]


rec("numpy_function_session", n3)


def n4():
    r = tf.numpy_function(
        lambda a, b: (a + b, a * b), [tf.constant(1.0), tf.constant(2.0)], [tf.float32, tf.float32]
    )
    return [type(r).__name__, [float(v) for v in r]]


rec("numpy_function_multi", n4)


def n5():
    return (
        tf.numpy_function(lambda a: a.astype(np.float64), [tf.constant(1.0)], tf.float32)
        .numpy()
        .tolist()
    )


rec("numpy_function_wrong_dtype", n5)


def n6():
    eager = type(tf.numpy_function(lambda a: a, [tf.constant(1.0)], [tf.float32])).__name__
    found = []

    @tf.function
    def f(x):
        found.append(type(tf.numpy_function(lambda a: a, [x], [tf.float32])).__name__)
        return x

    f(tf.constant(1.0))
    g = tf.Graph()
    with g.as_default():
        r = tf.numpy_function(lambda a: a, [tf.constant(1.0)], [tf.float32])
        with tf.compat.v1.Session() as s:
            fetched = s.run(r)
    return [eager, found[0], type(r).__name__, type(fetched).__name__, len(fetched)]


rec("numpy_function_one_element_list", n6)
import os

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "custom_gradient_goldens.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, default=str, sort_keys=True)
    fh.write("\n")
