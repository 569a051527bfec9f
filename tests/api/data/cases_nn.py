"""tf.nn's composites and sampled losses, isotonic regression, the experimental dropouts:
values, gradients and errors as TensorFlow gives them. Plain code: no TensorFlow import."""

GRADS = """
def grads(f, *xs, dtype=tf.float64):
    xs = [tf.constant(x, dtype) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    return [y, [None if g is None else tf.convert_to_tensor(g) for g in tape.gradient(y, xs)]]
"""

CASES = {
    "crelu_moments": GRADS
    + """
x = [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]
result = [tf.nn.crelu(x), tf.nn.crelu(x, axis=0),
          tf.nn.sufficient_statistics(tf.constant(x), [0]),
          tf.nn.sufficient_statistics(tf.constant(x), [1], shift=0.5, keepdims=True),
          tf.nn.normalize_moments(3.0, tf.constant([6.0]), tf.constant([14.0]), None),
          tf.nn.normalize_moments(3.0, tf.constant([6.0]), tf.constant([14.0]), 1.0),
          tf.nn.weighted_moments(tf.constant(x), [1], tf.constant([1.0, 2.0, 3.0])),
          tf.nn.weighted_moments(tf.constant(x), [0, 1], tf.constant([[1.0], [0.0]]),
                                 keepdims=True),
          grads(lambda x: tf.nn.weighted_moments(x, [1], tf.constant([1.0, 2.0, 3.0], tf.float64)),
                x)[1]]
""",
    "lrn": GRADS
    + """
x = np.arange(10.0).reshape(1, 1, 2, 5) / 10
result = [tf.nn.lrn(tf.constant(x, tf.float32)),
          tf.nn.local_response_normalization(tf.constant(x, tf.float32), 2, 1.0, 0.5, 0.75),
          grads(lambda x: tf.nn.lrn(x, 1, 2.0, 0.3, 0.6), x, dtype=tf.float32)[1]]
""",
    "lrn_rank": "tf.nn.lrn(tf.ones([2, 3]))",
    "losses": GRADS
    + """
t, l = [0.0, 0.5, 2.0, 5.0], [0.1, -1.0, 0.5, 1.5]
result = [tf.nn.log_poisson_loss(tf.constant(t), tf.constant(l)),
          tf.nn.log_poisson_loss(tf.constant(t), tf.constant(l), compute_full_loss=True),
          grads(lambda t, l: tf.nn.log_poisson_loss(t, l, compute_full_loss=True), t, l)[1],
          tf.nn.compute_average_loss([1.0, 2.0, 3.0]),
          tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6),
          tf.nn.compute_average_loss([[1.0, 2.0], [3.0, 4.0]], sample_weight=[1.0, 0.0]),
          tf.nn.scale_regularization_loss([1.0, 2.0]),
          tf.nn.batch_norm_with_global_normalization(tf.constant([[1.0, 2.0]]), tf.constant([1.0,
              1.0]), tf.constant([1.0, 4.0]), tf.constant([0.5, 0.0]), tf.constant([2.0, 2.0]),
              0.001, True),
          tf.nn.batch_norm_with_global_normalization(tf.constant([[1.0, 2.0]]), tf.constant([1.0,
              1.0]), tf.constant([1.0, 4.0]), tf.constant([0.5, 0.0]), tf.constant([2.0, 2.0]),
              0.001, False)]
""",
    "average_loss_scalar": "tf.nn.compute_average_loss(tf.constant(1.0))",
    "sampled_losses": GRADS
    + """
w = np.arange(12.0).reshape(4, 3) / 10
b = np.array([0.1, -0.2, 0.3, 0.0])
x = np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
s = (tf.constant([0, 3], tf.int64), tf.constant([[0.5], [0.25]], tf.float64),
     tf.constant([0.25, 0.75], tf.float64))
hit = (tf.constant([2, 1], tf.int64), tf.constant([[0.5], [0.25]], tf.float64),
       tf.constant([0.25, 0.75], tf.float64))
labels = tf.constant([[2], [1]], tf.int64)
result = [grads(lambda w, b, x: tf.nn.sampled_softmax_loss(w, b, labels, x, 2, 4,
                                                           sampled_values=s), w, b, x),
          grads(lambda w, b, x: tf.nn.nce_loss(w, b, labels, x, 2, 4, sampled_values=s),
                w, b, x),
          grads(lambda w, b, x: tf.nn.sampled_softmax_loss(w, b, labels, x, 2, 4,
                                                           sampled_values=hit), w, b, x)[0],
          grads(lambda w, b, x: tf.nn.nce_loss(w, b, labels, x, 2, 4, sampled_values=hit,
                                               remove_accidental_hits=True), w, b, x)[0],
          tf.nn.compute_accidental_hits([[2], [3]], [2, 3, 2], 1),
          tf.nn.compute_accidental_hits(tf.constant([[2, 3]], tf.int64),
                                        tf.constant([3, 5, 2], tf.int64), 2),
          tf.nn.sampled_softmax_loss(w.astype(np.float32), b.astype(np.float32), labels,
                                     x.astype(np.float32), 2, 4, seed=1).shape.as_list()]
""",
    "isotonic": GRADS
    + """
x = [[1.0, 3.0, 2.0, 4.0, 3.5], [5.0, 4.0, 6.0, 1.0, 1.0]]
result = [tf.nn.isotonic_regression(x), tf.nn.isotonic_regression(x, decreasing=False),
          tf.nn.isotonic_regression(tf.constant(x), axis=0),
          tf.nn.isotonic_regression(tf.constant([[3, 1, 2]])),
          grads(lambda x: tf.nn.isotonic_regression(x)[0] * [[1.0, 2.0, 3.0, 4.0, 5.0]], x)[1]]
""",
    "experimental_dropout": """
x = tf.ones([2, 5])
result = [tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]),
          tf.nn.experimental.stateless_dropout(x, 0.25, seed=[3, 4], noise_shape=[1, 5]),
          tf.nn.experimental.general_dropout(x, 0.5, lambda shape, dtype: tf.fill(shape,
                                             tf.constant(0.7, dtype)))]
""",
}
