"""Graph op names as TensorFlow prints them (``concat:0``, ``add:0``, ``strided_slice:0``):
one graph per case, the names of the tensors a TF1 program builds in order (uniquified
names depend on what came before). Plain code: no TensorFlow import here."""

_GRAPH = """
tf1 = tf.compat.v1
g = tf.Graph()
with g.as_default():
    x = tf1.placeholder(tf.float32, [2], name="x")
    m = tf1.placeholder(tf.float32, [2, 2], name="m")
    b = tf1.placeholder(tf.bool, [2], name="b")
    i = tf1.placeholder(tf.int32, [2], name="i")
    result = [t.name for t in [{}]]
"""


def _names(*expressions: str) -> str:
    return _GRAPH.format(", ".join(expressions))


CASES = {
    "operators": _names(
        "x + x",
        "x - x",
        "x * x",
        "x / x",
        "x // x",
        "x % x",
        "x ** x",
        "m @ m",
        "2.0 * x",
        "2.0 - x",
        "2.0 / x",
        "b & b",
        "b | b",
        "b ^ b",
        "~b",
        "-x",
        "abs(x)",
        "x > x",
        "x < x",
        "x >= x",
        "x <= x",
        "x[0]",
        "m[1:, 0]",
        "x[::-1]",
        "i // i",
    ),
    "joins_and_splits": _names(
        "tf.concat([x, x], 0)",
        "tf.stack([x, x], 1)",
        "tf.unstack(m)[1]",
        "tf.split(x, 2)[1]",
        "tf.split(m, [1, 1], axis=1)[0]",
        "tf.concat([x, x], 0, name='c')",
        "tf.concat([m, m], 1)",
        "tf.transpose(m)",
        "tf.transpose(m, [1, 0])",
    ),
    "array_ops": _names(
        "tf.ones_like(x)",
        "tf.zeros_like(x)",
        "tf.one_hot(i, 3)",
        "tf.clip_by_value(x, 0.0, 1.0)",
        "tf.reshape(m, [-1])",
        "tf.squeeze(tf.expand_dims(x, 0))",
        "tf.gather(x, [0])",
        "tf.tile(x, [2])",
        "tf.pad(x, [[1, 1]])",
        "tf.where(b, x, x)",
        "tf.reverse(x, [0])",
        "tf.broadcast_to(x, [2, 2])",
        "tf.stop_gradient(x)",
        "tf.identity(x)",
        "tf.shape(m)",
        "tf.gather_nd(m, [[0, 0]])",
        "tf.cast(x, tf.int32)",
        "tf.strided_slice(m, [0, 0], [1, 2])",
    ),
    "math_ops": _names(
        "tf.exp(x)",
        "tf.sigmoid(x)",
        "tf.tanh(x)",
        "tf.square(x)",
        "tf.sqrt(x)",
        "tf.maximum(x, x)",
        "tf.subtract(x, x)",
        "tf.math.multiply(x, x)",
        "tf.math.log(x)",
        "tf.add_n([x, x])",
        "tf.math.equal(x, x)",
        "tf.math.logical_and(b, b)",
        "tf.logical_not(b)",
        "tf.math.logical_xor(b, b)",
        "tf.cumsum(x)",
        "tf.abs(x)",
        "tf.negative(x)",
        "tf.pow(x, x)",
        "tf.math.floormod(x, x)",
        "tf.math.sign(x)",
        "tf.round(x)",
        "tf.floor(x)",
        "tf.math.ceil(x)",
        "tf.math.is_nan(x)",
    ),
    "reductions_and_nn": _names(
        "tf.reduce_sum(x)",
        "tf.reduce_mean(x)",
        "tf.reduce_max(x)",
        "tf.reduce_min(x)",
        "tf.math.reduce_prod(x)",
        "tf.reduce_all(b)",
        "tf.reduce_any(b)",
        "tf.argmax(x)",
        "tf.reduce_logsumexp(x)",
        "tf.matmul(m, m)",
        "tf.nn.relu(x)",
        "tf.nn.softmax(m)",
        "tf.nn.log_softmax(m)",
        "tf.nn.softplus(x)",
        "tf.nn.elu(x)",
        "tf.nn.leaky_relu(x)",
        "tf.nn.l2_loss(x)",
        "tf.nn.bias_add(m, x)",
    ),
    "linalg": _names(
        "tf.linalg.diag(x)",
        "tf.linalg.diag_part(m)",
        "tf.linalg.set_diag(m, x)",
    ),
    "scoped": """
tf1 = tf.compat.v1
g = tf.Graph()
with g.as_default():
    x = tf1.placeholder(tf.float32, [2], name="x")
    with tf.name_scope("layer"):
        a = x * 2.0 + x
        c = tf.concat([a, x], 0)
    with tf.name_scope("layer"):
        d = tf.stack([x, x])[0]
    result = [t.name for t in (a, c, d)] + [a.op.name, a.op.type, c.op.type, d.op.type]
""",
}
