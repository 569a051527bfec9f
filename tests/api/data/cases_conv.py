"""tf.nn's 3-D, depthwise, separable, atrous and transposed convolutions, pooling with
dilations, morphology and max_pool_with_argmax: values and gradients as TensorFlow gives
them. Plain code: no TensorFlow import here."""

GRADS = """
def grads(f, *xs):
    xs = [tf.constant(x, tf.float32) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    return [y, tape.gradient(y, xs)]

def data(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)
"""

CASES = {
    "conv3d": GRADS
    + """
x, w = data(1, 4, 4, 4, 2), data(2, 2, 2, 2, 3, seed=1)
result = [grads(lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID"), x, w),
          grads(lambda x, w: tf.nn.conv3d(x, w, [1, 2, 2, 2, 1], "SAME"), x, w),
          grads(lambda y, w: tf.nn.conv3d_transpose(y, w, [1, 4, 4, 4, 2], [1, 2, 2, 2, 1]),
                data(1, 2, 2, 2, 3, seed=2), w)]
""",
    "depthwise_separable": GRADS
    + """
x, w, p = data(1, 5, 5, 2), data(3, 3, 2, 2, seed=1), data(1, 1, 4, 3, seed=2)
dy = data(1, 3, 3, 4, seed=3)
result = [grads(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID"), x, w),
          grads(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), x, w),
          grads(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME",
                                                    dilations=[2, 2]), x, w),
          grads(lambda x, w, p: tf.nn.separable_conv2d(x, w, p, [1, 1, 1, 1], "VALID"), x, w, p),
          tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], w, dy, [1, 1, 1, 1], "VALID"),
          tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 2, 2], dy, [1, 1, 1, 1], "VALID")]
""",
    "atrous_transpose_convolution": GRADS
    + """
x, w = data(1, 6, 6, 1), data(2, 2, 1, 2, seed=1)
result = [grads(lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), x, w),
          grads(lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "VALID"), x, w),
          grads(lambda y, w: tf.nn.atrous_conv2d_transpose(y, w, [1, 6, 6, 1], 2, "SAME"),
                data(1, 6, 6, 2, seed=2), w),
          grads(lambda y, w: tf.nn.conv1d_transpose(y, w, [1, 7, 2], 2, "VALID"),
                data(1, 3, 1, seed=3), data(3, 2, 1, seed=4)),
          grads(lambda y, w: tf.nn.conv_transpose(y, w, [1, 4, 4, 1], 2),
                data(1, 2, 2, 2, seed=5), data(2, 2, 1, 2, seed=6)),
          tf.nn.convolution(x, w).shape.as_list(), tf.nn.convolution(x, w, 2, "SAME").shape.as_list(),
          tf.nn.convolution(data(1, 5, 2), data(2, 2, 3), padding="SAME").shape.as_list()]
""",
    "pool_and_space_to_batch": GRADS
    + """
x = data(1, 6, 6, 2)
result = [grads(lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 2]), x),
          grads(lambda x: tf.nn.pool(x, [3, 3], "AVG", padding="VALID", dilations=[2, 1]), x),
          grads(lambda x: tf.nn.pool(x, [2, 2], "MAX", strides=[2, 2]), x),
          grads(lambda x: tf.nn.with_space_to_batch(
              x, [2, 2], "SAME", lambda x, n, p: tf.nn.conv2d(x, tf.ones([3, 3, 2, 1]), 1, p),
              filter_shape=[3, 3]), x)]
""",
    "pool_same_dilated": "tf.nn.pool(tf.ones([1, 6, 6, 2]), [2, 2], 'MAX', padding='SAME', dilations=[2, 2])",
    "morphology": GRADS
    + """
x, w = data(1, 5, 5, 2), data(2, 3, 2, seed=1)
result = [grads(lambda x, w: tf.nn.dilation2d(x, w, [1, 1, 1, 1], "VALID", "NHWC",
                                             [1, 1, 1, 1]), x, w),
          grads(lambda x, w: tf.nn.dilation2d(x, w, [1, 2, 2, 1], "SAME", "NHWC",
                                             [1, 1, 2, 1]), x, w),
          grads(lambda x, w: tf.nn.erosion2d(x, w, [1, 1, 1, 1], "SAME", "NHWC",
                                            [1, 1, 1, 1]), x, w)]
""",
    "max_pool_with_argmax": GRADS
    + """
x = data(2, 5, 4, 3)
v, a = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")
v2, a2 = tf.nn.max_pool_with_argmax(x, [1, 3, 2, 1], [1, 1, 2, 1], "VALID",
                                    output_dtype=tf.int32, include_batch_in_index=True)
result = [v, a, v2, a2, grads(lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0], x)[1]]
""",
}
