"""Array functions added for issue 22 (unique, searchsorted, histograms, partitions,
reverse_sequence, repeat, space/batch/depth moves, bincount) with their gradients, the
higher-order functions (scan, foldl, foldr, case, switch_case) and TensorFlow 2's
initializers. Plain code: no TensorFlow import here."""


def _grad(expr: str, *inputs: str) -> str:
    """A case: the value of ``expr`` (in ``x``, ``y``) and its gradient of sum(out * w)."""
    names = ", ".join(f"x{i}" for i in range(len(inputs)))
    made = "; ".join(f"x{i} = tf.constant({v})" for i, v in enumerate(inputs))
    return f"""
{made}
with tf.GradientTape() as tape:
    tape.watch([{names}])
    out = {expr}
    w = tf.cast(tf.reshape(tf.range(tf.size(out)), tf.shape(out)), out.dtype) * 0.5 + 1.0
    loss = tf.reduce_sum(out * w)
result = [out, tape.gradient(loss, [{names}])]
"""


CASES = {
    "unique": """
u = tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
c = tf.unique_with_counts(tf.constant([3.5, 1.0, 3.5]), out_idx=tf.int64)
result = [u.y, u.idx, c.y, c.idx, c.count, u[0], type(u).__name__]
""",
    "searchsorted": """
result = [tf.searchsorted([[1., 2., 3.], [2., 4., 6.]], [[2.5, 1.], [4., 7.]]),
          tf.searchsorted([1, 2, 2, 3], [2], side="right", out_type=tf.int64),
          tf.searchsorted([1, 2, 2, 3], [2, 0, 9])]
""",
    "searchsorted_bad_side": "tf.searchsorted([1, 2], [1], side='middle')",
    "histograms": """
v = [-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]
result = [tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5),
          tf.histogram_fixed_width_bins(v, [0.0, 5.0], nbins=5),
          tf.histogram_fixed_width(tf.constant([1, 2, 9]), [0, 10], nbins=2, dtype=tf.int64)]
""",
    "unravel_index": "result = [tf.unravel_index([22, 41, 37], [7, 6]), tf.unravel_index(5, [2, 3])]",
    "bincount": """
m = tf.math
result = [m.bincount([1, 1, 3]), m.bincount([1, 1, 3], weights=[0.5, 1., 2.]),
          m.bincount([[1, 2], [2, 0]], axis=-1), m.bincount([1, 5], minlength=3, maxlength=4),
          m.bincount([1, 1, 3], binary_output=True), m.bincount([], minlength=2)]
""",
    "repeat": """
result = [tf.repeat([1, 2, 3], 2), tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0),
          tf.repeat([[1, 2], [3, 4]], 2), tf.repeat([[1, 2], [3, 4]], [0, 3], axis=1)]
""",
    "repeat_gradient": _grad(
        "tf.repeat(x0, [2, 0, 1], axis=0)", "[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]"
    ),
    "reverse_sequence": _grad(
        "tf.reverse_sequence(x0, [2, 3], seq_axis=1, batch_axis=0)",
        "[[1., 2., 3., 4.], [5., 6., 7., 8.]]",
    ),
    "reverse_sequence_batch_axis": """
x = tf.reshape(tf.range(24), [2, 3, 4])
result = tf.reverse_sequence(x, [1, 3, 2, 0], seq_axis=1, batch_axis=2)
""",
    "dynamic_partition": """
parts = tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 1], 2)
deep = tf.dynamic_partition([[1, 2], [3, 4], [5, 6]], [2, 0, 2], 3)
result = [parts, deep]
""",
    "dynamic_partition_gradient": """
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    a, b = tf.dynamic_partition(x, [1, 0, 1], 2)
    loss = tf.reduce_sum(a * 2.0) + tf.reduce_sum(b * b)
result = [a, b, tape.gradient(loss, x)]
""",
    "dynamic_stitch": """
x = tf.constant([10.0, 30.0])
y = tf.constant([20.0, 40.0, 50.0])
with tf.GradientTape() as tape:
    tape.watch([x, y])
    out = tf.dynamic_stitch([[0, 2], [1, 3, 2]], [x, y])
    loss = tf.reduce_sum(out * tf.constant([1.0, 2.0, 3.0, 4.0]))
result = [out, tape.gradient(loss, [x, y])]
""",
    "parallel_stack_eager": "tf.parallel_stack([tf.constant([1]), tf.constant([2])])",
    "parallel_stack_graph": """
@tf.function
def f(x):
    return tf.parallel_stack([x, x * 2.0])
result = f(tf.constant([1.0, 2.0]))
""",
    "shapes": """
result = [tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])]),
          tf.shape_n([tf.zeros([2])], out_type=tf.int64),
          tf.broadcast_dynamic_shape([2, 1], [3]), tf.broadcast_dynamic_shape([5, 1, 3], [4, 1]),
          tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])).as_list(),
          tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([3])).as_list()]
""",
    "broadcast_static_incompatible": "tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))",
    "space_to_batch": _grad(
        "tf.space_to_batch_nd(x0, [2, 2], [[0, 0], [1, 1]])", "np.arange(24.0).reshape(1, 4, 2, 3)"
    ),
    "space_to_batch_v2": """
x = tf.reshape(tf.range(32.0), [2, 4, 4, 1])
y = tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])
result = [y, tf.batch_to_space(y, [2, 2], [[0, 0], [0, 0]])]
""",
    "batch_to_space": _grad(
        "tf.batch_to_space(x0, [2], [[1, 0]])", "np.arange(12.0).reshape(4, 3, 1)"
    ),
    "required_paddings": """
result = list(tf.required_space_to_batch_paddings([5, 5], [2, 2])) + list(
    tf.required_space_to_batch_paddings([5, 4], [3, 2], base_paddings=[[1, 0], [0, 2]]))
""",
    "depth_space": _grad(
        "tf.nn.depth_to_space(tf.nn.space_to_depth(x0, 2) * 2.0, 2)",
        "np.arange(32.0).reshape(1, 4, 4, 2)",
    ),
    "space_to_depth_values": """
x = tf.reshape(tf.range(32), [1, 4, 4, 2])
result = [tf.nn.space_to_depth(x, 2), tf.nn.depth_to_space(tf.reshape(tf.range(16), [1, 2, 2, 4]), 2)]
""",
    "scan": """
result = [tf.scan(lambda a, x: a + x, tf.constant([1., 2., 3.])),
          tf.scan(lambda a, x: a * x, tf.constant([1., 2., 3.]), initializer=tf.constant(2.0),
                  reverse=True),
          tf.scan(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1., 2., 3.]),
                  initializer=(tf.constant(0.0), tf.constant(1.0))),
          tf.scan(lambda a, x: a + x, tf.constant([]), initializer=tf.constant(0.0)),
          tf.scan(lambda a, x: a + x[0] * x[1], (tf.constant([1., 2.]), tf.constant([3., 4.])),
                  initializer=tf.constant(0.0))]
""",
    "scan_empty_without_initializer": "tf.scan(lambda a, x: a + x, tf.constant([]))",
    "folds": """
result = [tf.foldl(lambda a, x: a - x, tf.constant([1., 2., 3.])),
          tf.foldr(lambda a, x: a - x, tf.constant([1., 2., 3.])),
          tf.foldl(lambda a, x: a + x, tf.constant([1, 2]), initializer=tf.constant(10)),
          tf.foldl(lambda a, x: a + x[0] * x[1], (tf.constant([1., 2.]), tf.constant([3., 4.])),
                   initializer=tf.constant(0.0))]
""",
    "scan_in_function_with_gradient": """
@tf.function
def f(x, w):
    states = tf.scan(lambda h, xt: tf.tanh(w * h + xt), x, initializer=tf.zeros([2]))
    return states, tf.foldr(lambda a, s: a + tf.reduce_sum(s), states, initializer=0.0)
x = tf.constant([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5]])
w = tf.constant(0.7)
with tf.GradientTape() as tape:
    tape.watch([x, w])
    states, total = f(x, w)
result = [states, total, tape.gradient(total, [x, w])]
""",
    "scan_unknown_length": """
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return tf.scan(lambda a, v: a * 0.5 + v, x), tf.foldl(lambda a, v: a + v, x)
result = list(f(tf.constant([1.0, 2.0, 3.0, 4.0])))
""",
    "case": """
x = tf.constant(3.0)
result = [tf.case([(x > 5, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))],
                  default=lambda: tf.constant(3)),
          tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))]),
          tf.case([(x < 0, lambda: tf.constant(-1.0))], default=lambda: x * 2.0)]
""",
    "case_none_true": """
x = tf.constant(3.0)
tf.case([(x > 5, lambda: tf.constant(1)), (x > 4, lambda: tf.constant(2))])
""",
    "case_in_function": """
@tf.function
def f(x):
    return tf.case([(x > 5.0, lambda: x * 10.0), (x > 2.0, lambda: x * 2.0)],
                   default=lambda: -x)
result = [f(tf.constant(7.0)), f(tf.constant(3.0)), f(tf.constant(1.0))]
""",
    "switch_case": """
fns = [lambda: tf.constant(10), lambda: tf.constant(20)]
result = [tf.switch_case(tf.constant(1), fns), tf.switch_case(tf.constant(7), fns),
          tf.switch_case(tf.constant(-1), fns),
          tf.switch_case(tf.constant(7), {0: lambda: tf.constant(10), 1: lambda: tf.constant(20)},
                         default=lambda: tf.constant(-1)),
          tf.switch_case(tf.constant(0), [(1, lambda: tf.constant(1)), (0, lambda: tf.constant(0))])]
""",
    "switch_case_python_index": "tf.switch_case(0, [lambda: tf.constant(1)])",
    "switch_case_gaps": "tf.switch_case(tf.constant(3), {0: lambda: tf.constant(10), 3: lambda: tf.constant(20)})",
    "switch_case_in_function": """
@tf.function
def f(i, x):
    return tf.switch_case(i, [lambda: x, lambda: x * x, lambda: -x])
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(tf.constant(1), x)
result = [f(tf.constant(0), x), y, f(tf.constant(2), x), f(tf.constant(9), x), tape.gradient(y, x)]
""",
    "initializers": """
result = [tf.constant_initializer([1, 2])([2]), tf.constant_initializer(3)([2, 2], tf.int32),
          tf.constant_initializer(2.5)([2], tf.float64), tf.zeros_initializer()([2], tf.int32),
          tf.ones_initializer()([1]), tf.random_normal_initializer(seed=3)([3]),
          tf.random_uniform_initializer(-1, 1, seed=5)([2, 2]),
          tf.random_normal_initializer(mean=1.0, stddev=2.0, seed=3)([3], tf.float64),
          tf.random_uniform_initializer(0, 10, seed=2)([3], tf.int32),
          tf.constant_initializer(2).get_config(), tf.random_uniform_initializer(seed=1).get_config(),
          tf.random_normal_initializer.from_config({"mean": 0.5, "stddev": 0.1, "seed": 4})([2])]
""",
    "initializer_in_variable": "result = tf.Variable(tf.random_normal_initializer(seed=1)(shape=[2]))",
    "constant_initializer_wrong_size": "tf.constant_initializer([1, 2, 3])([2])",
    "random_normal_initializer_int": "tf.random_normal_initializer()([2], tf.int32)",
}
