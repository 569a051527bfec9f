"""Gradients at edge points (zeros of sqrt/log/pow/abs/norm, ties of max/min/relu, large
logits, singular matrices), written once against a ``tf`` namespace so that the same
definitions run on retrograd (the test) and on TensorFlow (``data/make_edge_goldens.py``).

Each case: ``name -> (f(tf, *xs) -> scalar-or-tensor, inputs as nested lists)``; the golden
is the gradient of ``reduce_sum(f(...))`` with respect to each input (float64), or the
error type when TensorFlow raises.
"""

from __future__ import annotations


def _c(tf, value):
    return tf.constant(value, dtype=tf.float64)


def _masked(op):
    return lambda tf, x: tf.where(x > 0, op(tf)(x), tf.zeros_like(x))


CASES = {
    # zeros
    "sqrt at 0": (lambda tf, x: tf.sqrt(x), [[0.0, 4.0]]),
    "where sqrt at 0": (_masked(lambda tf: tf.sqrt), [[0.0, 4.0]]),
    "where rsqrt at 0": (_masked(lambda tf: tf.math.rsqrt), [[0.0, 4.0]]),
    "where reciprocal at 0": (_masked(lambda tf: tf.math.reciprocal), [[0.0, 4.0]]),
    "sqrt times 0": (lambda tf, x: tf.sqrt(x) * 0.0, [[0.0, 4.0]]),
    "log at 0": (lambda tf, x: tf.math.log(x), [[0.0, 2.0]]),
    "where log at 0": (_masked(lambda tf: tf.math.log), [[0.0, 2.0]]),
    "xlogy at 0": (lambda tf, x: tf.math.xlogy(x, x), [[0.0, 2.0]]),
    "pow square at 0": (lambda tf, x: tf.pow(x, 2.0), [[0.0, -1.5]]),
    "pow half at 0": (lambda tf, x: tf.pow(x, 0.5), [[0.0, 4.0]]),
    "pow zero exponent at 0": (lambda tf, x: tf.pow(x, 0.0), [[0.0, 3.0]]),
    "pow base 0 wrt exponent": (lambda tf, x, y: tf.pow(x, y), [[0.0, 0.0], [2.0, 0.5]]),
    "abs at 0": (lambda tf, x: tf.abs(x), [[0.0, -2.0, 3.0]]),
    "sign at 0": (lambda tf, x: tf.sign(x), [[0.0, -2.0]]),
    "norm at 0": (lambda tf, x: tf.norm(x), [[0.0, 0.0]]),
    "norm": (lambda tf, x: tf.norm(x), [[3.0, -4.0]]),
    "atan2 at 0": (lambda tf, x, y: tf.atan2(x, y), [[0.0, 1.0], [0.0, 1.0]]),
    "div_no_nan at 0": (lambda tf, x, y: tf.math.divide_no_nan(x, y), [[1.0, 2.0], [0.0, 4.0]]),
    # ties
    "reduce_max ties": (lambda tf, x: tf.reduce_max(x), [[1.0, 3.0, 3.0]]),
    "reduce_min ties": (lambda tf, x: tf.reduce_min(x), [[2.0, -1.0, -1.0, 5.0]]),
    "reduce_max rows ties": (lambda tf, x: tf.reduce_max(x, axis=1), [[[1.0, 1.0], [2.0, 0.0]]]),
    "maximum tie": (lambda tf, x, y: tf.maximum(x, y), [[1.0, 2.0], [1.0, 3.0]]),
    "minimum tie": (lambda tf, x, y: tf.minimum(x, y), [[1.0, 2.0], [1.0, 3.0]]),
    "relu at 0": (lambda tf, x: tf.nn.relu(x), [[0.0, -1.0, 1.0]]),
    "relu6 at 0 and 6": (lambda tf, x: tf.nn.relu6(x), [[0.0, 6.0, 3.0, 7.0]]),
    "leaky_relu at 0": (lambda tf, x: tf.nn.leaky_relu(x, 0.25), [[0.0, -1.0, 1.0]]),
    "elu at 0": (lambda tf, x: tf.nn.elu(x), [[0.0, -1.0, 1.0]]),
    "clip at bounds": (lambda tf, x: tf.clip_by_value(x, -1.0, 1.0), [[-1.0, 1.0, 0.5, 2.0]]),
    "argmax-like sort ties": (lambda tf, x: tf.sort(x), [[2.0, 1.0, 2.0]]),
    # large logits
    "softmax large": (
        lambda tf, x: tf.nn.softmax(x) * _c(tf, [1.0, 2.0, 3.0]),
        [[1000.0, 0.0, -1000.0]],
    ),
    "log_softmax large": (
        lambda tf, x: tf.nn.log_softmax(x) * _c(tf, [1.0, 2.0, 3.0]),
        [[1000.0, 0.0, -1000.0]],
    ),
    "softmax cross entropy large": (
        lambda tf, x: tf.nn.softmax_cross_entropy_with_logits(
            labels=_c(tf, [0.2, 0.3, 0.5]), logits=x
        ),
        [[1000.0, 0.0, -1000.0]],
    ),
    "sigmoid cross entropy large": (
        lambda tf, x: tf.nn.sigmoid_cross_entropy_with_logits(
            labels=_c(tf, [1.0, 0.0, 0.5]), logits=x
        ),
        [[1000.0, -1000.0, 800.0]],
    ),
    "logsumexp large": (lambda tf, x: tf.reduce_logsumexp(x), [[1000.0, 1000.0, -1000.0]]),
    "sigmoid large": (lambda tf, x: tf.sigmoid(x), [[800.0, -800.0, 0.0]]),
    "softplus large": (lambda tf, x: tf.nn.softplus(x), [[800.0, -800.0, 0.0]]),
    "tanh large": (lambda tf, x: tf.tanh(x), [[400.0, -400.0]]),
    # singular matrices
    "det singular": (lambda tf, x: tf.linalg.det(x), [[[1.0, 2.0], [2.0, 4.0]]]),
    "det zero matrix": (lambda tf, x: tf.linalg.det(x), [[[0.0, 0.0], [0.0, 0.0]]]),
    "inverse singular": (lambda tf, x: tf.linalg.inv(x), [[[1.0, 2.0], [2.0, 4.0]]]),
    "solve singular": (
        lambda tf, x, y: tf.linalg.solve(x, y),
        [[[1.0, 2.0], [2.0, 4.0]], [[1.0], [2.0]]],
    ),
    "slogdet singular": (
        lambda tf, x: tf.linalg.slogdet(x)[1],
        [[[1.0, 2.0], [2.0, 4.0]]],
    ),
    "matmul with a singular matrix": (
        lambda tf, x, y: tf.matmul(x, y),
        [[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]],
    ),
}


def gradients(tf, name):
    """The gradients of sum(f(xs)) for case ``name`` as nested lists (None: unconnected),
    or ``{"error": type name}`` when the forward or backward pass raises."""
    f, inputs = CASES[name]
    xs = [tf.constant(v, dtype=tf.float64) for v in inputs]
    try:
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = tf.reduce_sum(f(tf, *xs))
        grads = tape.gradient(y, xs)
    except Exception as e:  # the error TensorFlow raises is part of the golden
        return {"error": _error_kind(e)}
    return {"grads": [None if g is None else g.numpy().tolist() for g in grads]}


def _error_kind(error):
    for kind in ("InvalidArgumentError", "ValueError", "TypeError"):
        if any(c.__name__ == kind for c in type(error).__mro__):
            return kind
    return type(error).__name__
