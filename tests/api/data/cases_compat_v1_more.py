"""TensorFlow 1 names added for issue 22 (item 2): setdiff1d, batch_gather, the scatter
updates of variables by product, quotient, maximum and minimum, batch_to_space_nd,
random_poisson's v1 order, get_seed, executing_eagerly_outside_functions and the raw
convolution ops of compat.v1.nn. Plain code: no TensorFlow import."""

CASES = {
    "setdiff1d": """
a = tf.compat.v1.setdiff1d([1, 2, 3, 4, 2, 5], [2, 5, 9])
b = tf.compat.v1.setdiff1d(tf.constant([1.5, 2.5]), tf.constant([0.5]), index_dtype=tf.int64)
c = tf.compat.v1.setdiff1d(tf.constant([], tf.int32), tf.constant([1]))
result = [a.out, a.idx, b.out, b.idx, c.out, c.idx]
""",
    "setdiff1d_rank": "tf.compat.v1.setdiff1d([[1, 2]], [1])",
    "setdiff1d_in_graph": """
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.int32, [None])
    out, idx = tf.compat.v1.setdiff1d(x, [3])
    with tf.compat.v1.Session() as sess:
        result = sess.run([out, idx], {x: [3, 1, 3, 2]})
""",
    "batch_gather": """
p = tf.reshape(tf.range(24.0), [2, 3, 4])
result = [tf.compat.v1.batch_gather(p, [[2, 0], [1, 1]]),
          tf.compat.v1.batch_gather(p, [[[3], [0], [1]], [[2], [2], [0]]]),
          tf.compat.v1.batch_gather([1, 2, 3], [2, 0])]
""",
    "batch_gather_gradient": """
p = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape() as tape:
    tape.watch(p)
    y = tf.reduce_sum(tf.compat.v1.batch_gather(p, [[2, 2], [0, 1]]) * [[1.0, 2.0], [3.0, 4.0]])
result = tape.gradient(y, p)
""",
    "scatter_arithmetic": """
def run(f, indices, updates):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    f(v, indices, updates)
    return v.read_value()

u = [[2.0, 0.5], [4.0, 8.0]]
result = [run(tf.compat.v1.scatter_mul, [0, 2], u), run(tf.compat.v1.scatter_mul, [1, 1], u),
          run(tf.compat.v1.scatter_div, [2, 0], u), run(tf.compat.v1.scatter_div, [1, 1], u),
          run(tf.compat.v1.scatter_max, [0, 0], u), run(tf.compat.v1.scatter_min, [2, 1], u),
          run(tf.compat.v1.scatter_min, [1, 1], u)]
""",
    "scatter_in_graph": """
g = tf.Graph()
with g.as_default():
    v = tf.compat.v1.Variable([2.0, 3.0, 4.0])
    update = tf.compat.v1.scatter_mul(v, [0, 2], [10.0, 0.5])
    with tf.compat.v1.Session() as sess:
        sess.run(v.initializer)
        sess.run(update)
        result = sess.run(v)
""",
    "batch_to_space_nd": """
x = tf.reshape(tf.range(16.0), [4, 2, 2, 1])
result = [tf.compat.v1.batch_to_space_nd(x, [2, 2], [[0, 0], [0, 0]]),
          tf.compat.v1.batch_to_space_nd(x, [2, 2], [[1, 0], [0, 1]])]
""",
    "random_poisson": """
r = tf.compat.v1.random_poisson([1.0, 3.0], [4, 5], seed=3)
s = tf.compat.v1.random_poisson(2.0, [6], dtype=tf.int32, seed=1)
result = [r.shape.as_list(), r.dtype.name, s.shape.as_list(), s.dtype.name,
          bool(tf.reduce_all(r >= 0))]
""",
    "get_seed": """
tf.random.set_seed(None)
a = [tf.compat.v1.get_seed(None), tf.compat.v1.get_seed(5)]
tf.random.set_seed(11)
b = tf.compat.v1.get_seed(5)
tf.random.set_seed(None)
result = [a, b]
""",
    "executing_eagerly_outside_functions": """
@tf.function
def f():
    return tf.compat.v1.executing_eagerly_outside_functions()

with tf.Graph().as_default():
    in_graph = tf.compat.v1.executing_eagerly_outside_functions()
result = [tf.compat.v1.executing_eagerly_outside_functions(), bool(f()), in_graph]
""",
    "depthwise_conv2d_native": """
x = tf.reshape(tf.range(50.0), [1, 5, 5, 2]) / 10.0
w = tf.reshape(tf.range(16.0), [2, 2, 2, 2]) / 10.0
result = [tf.compat.v1.nn.depthwise_conv2d_native(x, w, [1, 1, 1, 1], "VALID"),
          tf.compat.v1.nn.depthwise_conv2d_native(x, w, [1, 2, 2, 1], "SAME")]
""",
    "depthwise_conv2d_native_backprops": """
x = tf.reshape(tf.range(18.0), [1, 3, 3, 2]) / 10.0
w = tf.reshape(tf.range(8.0), [2, 2, 2, 1]) / 10.0
dy = tf.reshape(tf.range(8.0), [1, 2, 2, 2]) / 10.0
result = [tf.compat.v1.nn.depthwise_conv2d_native_backprop_filter(
              x, [2, 2, 2, 1], dy, [1, 1, 1, 1], "VALID"),
          tf.compat.v1.nn.depthwise_conv2d_native_backprop_input(
              [1, 3, 3, 2], w, dy, [1, 1, 1, 1], "VALID")]
""",
    "conv3d_backprop_filter": """
x = tf.reshape(tf.range(54.0), [1, 3, 3, 3, 2]) / 10.0
dy = tf.reshape(tf.range(24.0), [1, 2, 2, 2, 3]) / 10.0
dy_same = tf.reshape(tf.range(81.0), [1, 3, 3, 3, 3]) / 10.0
result = [tf.compat.v1.nn.conv3d_backprop_filter(x, [2, 2, 2, 2, 3], dy, [1, 1, 1, 1, 1],
                                                 "VALID"),
          tf.compat.v1.nn.conv3d_backprop_filter_v2(x, [2, 2, 2, 2, 3], dy_same,
                                                    [1, 1, 1, 1, 1], "SAME")]
""",
    "conv3d_backprop_filter_mismatch": """
tf.compat.v1.nn.conv3d_backprop_filter(tf.ones([1, 3, 3, 3, 2]), [2, 2, 2, 2, 3],
                                       tf.ones([1, 3, 3, 3, 3]), [1, 1, 1, 1, 1], "VALID")
""",
}
