"""tf.math's special functions and remaining ops: values, first and second derivatives
(as TensorFlow computes them), dtypes and errors. Plain code: no TensorFlow import here."""

GRADS = """
def grads(f, *xs):
    xs = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(xs)
            y = f(*xs)
        first = inner.gradient(y, xs)
        sums = [None if g is None else tf.reduce_sum(g) for g in first]
    second = [None if s is None else outer.gradient(s, xs) for s in sums]
    return [y, first, second]
"""

SPECIAL = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]  # fmt: skip

CASES = {
    **{
        f"special_{name}": GRADS + f"result = grads(tf.math.special.{name}, [0.3, 0.7, 1.9]) + "
        f"[tf.math.special.{name}(tf.constant([0.5], tf.float32))]"
        for name in SPECIAL
    },
    # (At 0 TensorFlow gives bessel_i1 the derivative 1.0, where it is 0.5, and every second
    # derivative nan; retrograd gives 0.5 and finite second derivatives: tests/ops.)
    "bessel_at_zero": GRADS
    + "result = [grads(f, [0.0])[:2] for f in (tf.math.bessel_i1e, tf.math.special.bessel_j1)]",
    "inverse_functions": GRADS
    + """
result = [grads(tf.math.erfinv, [-0.5, 0.3]), grads(tf.math.ndtri, [0.2, 0.7]),
          grads(tf.math.erfcinv, [0.4, 1.5]), tf.math.erfinv([1.0, -1.0, 2.0]),
          tf.math.ndtri([0.0, 1.0, 2.0])]
""",
    "igamma": GRADS
    + """
result = [grads(lambda x: tf.math.igamma(tf.constant([0.5, 2.5], tf.float64), x), [0.3, 4.0]),
          grads(lambda x: tf.math.igammac(tf.constant([0.5, 2.5], tf.float64), x), [0.3, 4.0])]
a, x = tf.constant([1.5, 2.5, 8.0], tf.float64), tf.constant([0.3, 0.7, 3.0], tf.float64)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, x])
    p, q = tf.math.igamma(a, x), tf.math.igammac(a, x)
result += [p, q, tape.gradient(p, [a, x]), tape.gradient(q, [a, x])]
result += [tf.math.igamma([-1.0, 1.0], [1.0, -1.0])]
""",
    "zeta_betainc": GRADS
    + """
result = [grads(lambda q: tf.math.zeta(tf.constant([2.0, 4.5], tf.float64), q), [0.5, 2.0]),
          grads(lambda x: tf.math.betainc(tf.constant([0.5, 2.0], tf.float64), 2.5, x), [0.2, 0.6]),
          tf.math.zeta([1.0, 0.5, 2.0], [1.0, 1.0, -1.5]), tf.math.betainc([1.0, 2.0], 2.0, 0.5)]
""",
    "betainc_shapes": "tf.math.betainc([1.0, 2.0], [1.0, 2.0, 3.0], 0.5)",
    "xlog1py_mul_no_nan": GRADS
    + """
result = [grads(tf.math.xlog1py, [0.5, 2.0], [0.3, 1.5]),
          grads(tf.math.multiply_no_nan, [0.5, 2.0], [0.0, 1.5]),
          tf.math.xlog1py([0.0, 2.0], [-1.0, 1.0]),
          tf.math.multiply_no_nan([float("inf"), float("nan"), 2.0], [0.0, 0.0, 3.0])]
""",
    "nextafter_rint_reciprocal": GRADS
    + """
result = [grads(tf.math.nextafter, [1.0, 2.0], [3.0, 0.0])[1],
          tf.math.nextafter(tf.constant([1.0], tf.float32), 2.0),
          tf.math.rint([0.5, 1.5, -2.5, 2.6]), grads(tf.math.reciprocal_no_nan, [0.0, 2.0])]
""",
    "euclidean_norm": GRADS
    + """
result = [grads(lambda x: tf.math.reduce_euclidean_norm(x, axis=1), [[3.0, 4.0], [1.0, 2.0]]),
          tf.math.reduce_euclidean_norm([[3, 4], [1, 1]], axis=1),
          tf.math.reduce_euclidean_norm(tf.constant([3 + 4j])),
          tf.math.reduce_euclidean_norm([[3.0, 4.0]], keepdims=True)]
""",
    "cumulative_logsumexp": GRADS
    + """
result = [grads(lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True),
                [0.5, -1.0, 2.0]),
          grads(lambda x: tf.math.cumulative_logsumexp(x, axis=1), [[0.5, -1.0], [2.0, 3.0]]),
          tf.math.cumulative_logsumexp([0.0, 1.0, 2.0], exclusive=True)]
""",
    "segment_prod": GRADS
    + """
result = [grads(lambda x: tf.math.unsorted_segment_prod(x, [0, 1, 0, -1], 3), [2.0, 3.0, 0.5, 5.0]),
          grads(lambda x: tf.math.segment_prod(x, [0, 0, 2]), [2.0, 3.0, 4.0]),
          tf.math.unsorted_segment_prod([[1, 2], [3, 4]], [1, 1], 2)]
# With zeros: the first derivative only (TensorFlow's second is nan there, retrograd's finite).
x = tf.constant([2.0, 0.0, 0.0, 5.0, 0.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.unsorted_segment_prod(x, [0, 0, 1, 1, 2, 2], 3)
result += [y, tape.gradient(y, x)]
""",
    "invert_permutation": "result = tf.math.invert_permutation([3, 4, 0, 2, 1])",
    "invert_permutation_duplicate": "tf.math.invert_permutation([0, 0, 1])",
    "invert_permutation_range": "tf.math.invert_permutation([0, 3, 1])",
    "invert_permutation_2d": "tf.math.invert_permutation([[0]])",
    "in_top_k": """
p = [[1.0, 1.0, 0.0], [0.0, 2.0, 3.0], [float("nan"), 0.0, 1.0]]
result = [tf.math.in_top_k([0, 1, 2], p, 1), tf.math.in_top_k([0, 1, 2], p, 2),
          tf.nn.in_top_k([5, 0, 0], p, 3)]
""",
    "counts": """
result = [tf.math.count_nonzero([[0, 1], [2, 0]], axis=1, keepdims=True),
          tf.math.count_nonzero([[0.0, 1.0], [2.0, 0.0]], dtype=tf.float32),
          tf.math.count_nonzero([True, False]), tf.math.zero_fraction([0, 1, 0, 2]),
          tf.nn.zero_fraction(tf.zeros([0]))]
""",
    "confusion_matrix": """
result = [tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]),
          tf.math.confusion_matrix([1, 2, 0], [2, 2, 0], num_classes=3, weights=[1.0, 2.0, 3.0],
                                   dtype=tf.float32)]
""",
    "confusion_matrix_negative": "tf.math.confusion_matrix([-1, 2], [2, 2])",
    "confusion_matrix_out_of_bound": "tf.math.confusion_matrix([1, 2], [2, 3], num_classes=3)",
    "accumulate_polyval_lbeta": GRADS
    + """
result = [tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]),
          tf.math.polyval([1, 2, 3], 2), tf.math.polyval([], tf.constant([2.0, 3.0])),
          grads(lambda c, x: tf.math.polyval([c, 2.0 * c, c * c], x), 0.5, [1.0, 2.0]),
          grads(tf.math.lbeta, [[1.0, 2.0], [0.5, 3.0]]), tf.math.lbeta(tf.zeros([2, 0])),
          tf.math.lbeta([1.0, 2.0])]
""",
    "accumulate_n_shapes": "tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0])])",
    "accumulate_n_empty": "tf.math.accumulate_n([])",
    "polyval_tensor": "tf.math.polyval(tf.constant([1.0, 2.0]), 2.0)",
    "monotone": """
result = [tf.math.is_non_decreasing([1, 1, 2]), tf.math.is_strictly_increasing([1, 1, 2]),
          tf.math.is_strictly_increasing([[1, 2], [3, 4]]), tf.math.is_non_decreasing([])]
""",
    "approx_k": GRADS
    + """
x = [[1.0, 5.0, 3.0], [2.0, 0.0, 1.0]]
# (approx_min_k, and approx_max_k along another dimension than the last: TensorFlow 2.21 has
# no CPU kernel for them; retrograd's are exact, tests/ops.)
result = [tf.math.approx_max_k(x, 2), tf.math.approx_max_k(x, 1, reduction_dimension=-1),
          tf.math.approx_max_k(tf.constant(x, tf.float16), 1)]
x = tf.constant(x)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.approx_max_k(x, 2)[0] * [[1.0, 2.0], [3.0, 4.0]]
result += [tape.gradient(y, x)]
""",
    "approx_k_float64": "tf.math.approx_max_k(tf.constant([1.0], tf.float64), 1)",
    "sobol": """
result = [tf.math.sobol_sample(3, 5, skip=2), tf.math.sobol_sample(2, 3, dtype=tf.float64),
          tf.math.sobol_sample(7, 4, skip=100)]
""",
    "sobol_bad_dim": "tf.math.sobol_sample(0, 3)",
    "softmax_scalar_mul": """
result = [tf.math.softmax(tf.constant([1.0, 2.0])),
          tf.math.log_softmax(tf.constant([[1.0, 2.0]]), axis=0),
          tf.math.scalar_mul(2.0, tf.constant([1.0, 3.0]))]
""",
}
