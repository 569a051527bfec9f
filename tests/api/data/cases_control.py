"""Ordering and pass-through functions (``group``, ``no_op``, ``tuple``,
``control_dependencies``, ``init_scope``, ``identity_n``, ``ensure_shape``, ...), casts with
TensorFlow's rules, and graph tensors' ``set_shape``. Plain code: no TensorFlow import."""

CASES = {
    "eager_values": """
result = [tf.no_op(), tf.group(tf.constant(1.0)), tf.tuple([tf.constant(1.0)]),
          tf.identity_n([tf.constant(1.0), tf.constant([2])]), tf.get_current_name_scope(),
          tf.inside_function(), tf.is_symbolic_tensor(tf.constant(1.0)),
          tf.is_symbolic_tensor(1.0)]
""",
    "name_scopes": """
names = []
with tf.name_scope("outer") as outer:
    names.append(tf.get_current_name_scope())
    with tf.name_scope("inner") as inner:
        names.append(tf.get_current_name_scope())
result = names + [outer, inner, tf.name_scope("x").name]
""",
    "in_function": """
seen = []
@tf.function
def f(x):
    seen.extend([tf.inside_function(), tf.get_current_name_scope()])
    with tf.init_scope():
        seen.extend([tf.executing_eagerly()])
    g = tf.group(x, x * 2)
    n = tf.no_op()
    t = tf.tuple([x, x + 1])
    seen.extend([g.name, g.type, n.name, [v.name for v in t], tf.is_symbolic_tensor(x)])
    with tf.control_dependencies([g]):
        y = tf.identity(x)
    seen.append([o.name for o in y.op.control_inputs])
    return y
result = [f(tf.constant([1.0])), seen]
""",
    "graph_group_names": """
g = tf.Graph()
with g.as_default():
    a, b = tf.constant(1.0), tf.constant(2.0)
    grouped = tf.group(a, [b], name="both")
    plain = tf.group()
    ta, tb = tf.tuple([a, b])
    result = [grouped.name, plain.name, ta.name, tb.name, tf.no_op(name="wait").name]
""",
    "control_dependencies_eager_callables": """
calls = []
with tf.control_dependencies([lambda: calls.append(1), tf.constant(2.0)]):
    x = tf.constant(3.0)
result = [calls, x]
""",
    "group_keyword": """
with tf.Graph().as_default():
    tf.group(tf.constant(1.0), foo=1)
""",
    "identity_n_gradient": """
x, y = tf.constant([1.0, 2.0]), tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch([x, y])
    a, b = tf.identity_n([x * 2.0, y])
    loss = tf.reduce_sum(a) * b
result = [a, b, tape.gradient(loss, [x, y])]
""",
    "ensure_shape": """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.ensure_shape(x, [None, 2]) * 3.0
result = [y, tape.gradient(y, x)]
""",
    "ensure_shape_mismatch": "tf.ensure_shape(tf.constant([1.0, 2.0]), [3])",
    "ensure_shape_in_graph": """
@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def f(x):
    y = tf.ensure_shape(x, [None, 3])
    return y, y.shape.as_list()
result = f(tf.ones([2, 3]))[0]
""",
    "guarantee_const": "result = tf.guarantee_const(tf.constant([1.5, 2.0]))",
    "check_pinned": "tf.check_pinned(tf.constant([1.0]))",
    "timestamp": "t = tf.timestamp(); result = [t.dtype.name, t.shape.as_list(), float(t) > 1.6e9]",
    "bitcast": """
result = [tf.bitcast(tf.constant([1.0, -2.0]), tf.int32),
          tf.bitcast(tf.constant([1, 256], tf.int32), tf.uint8),
          tf.bitcast(tf.constant([[1, 0, 128, 63]], tf.uint8), tf.float32),
          tf.bitcast(tf.constant([1.5], tf.float64), tf.int64)]
""",
    "bitcast_bad_shape": "tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)",
    "saturate_cast": """
result = [tf.saturate_cast(tf.constant([-1e10, 1e10, 3.7, -3.7]), tf.int32),
          tf.saturate_cast(tf.constant([300, -5], tf.int32), tf.uint8),
          tf.saturate_cast(tf.constant([1 + 2j]), tf.float32),
          tf.saturate_cast(tf.constant([1.5, 1e6], tf.float64), tf.float16),
          tf.saturate_cast(tf.constant([70000.0, -70000.0]), tf.int16),
          tf.dtypes.saturate_cast(tf.constant([1e20], tf.float64), tf.float32)]
""",
    "saturate_cast_gradient": """
x = tf.constant([1.0, 300.0, -2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.saturate_cast(x, tf.float16)
result = tape.gradient(tf.cast(y, tf.float32), x)
""",
    "scalar_mul": """
s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
m = tf.scalar_mul(3.0, s)
result = [tf.scalar_mul(2.0, tf.constant([1.0, 2.0])),
          tf.scalar_mul(tf.constant(2.0), tf.constant([1.0])), m.values, m.indices,
          tf.convert_to_tensor(m)]
""",
    "scalar_mul_not_scalar": "tf.scalar_mul(tf.constant([2.0, 1.0]), tf.constant([1.0, 2.0]))",
    "truncate": """
result = [tf.truncatediv(tf.constant([-7, 7, 7, -7]), tf.constant([5, -5, 5, -5])),
          tf.truncatediv(tf.constant([-7.5, 7.5]), tf.constant([2.0, -2.0])),
          tf.truncatemod(tf.constant([-7.5, 7.5]), tf.constant([2.0, -2.0])),
          tf.truncatemod(tf.constant([-7, 7]), tf.constant([5, -5])),
          tf.truncatediv(tf.constant([[9], [-9]]), tf.constant([2, -4]))]
""",
    "truncate_gradient": """
x, y = tf.constant([-7.5, 7.5]), tf.constant([2.0, -2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, y])
    z = tf.truncatediv(x, y)
result = [g is None for g in tape.gradient(z, [x, y])]
""",
    "dtypes": """
d = tf.dtypes
result = [d.uint16.name, d.uint32.max, d.uint64.min, d.cast(1.7, tf.int32), d.complex(1.0, 2.0),
          tf.uint16.is_unsigned, d.variant.name, len(d.QUANTIZED_DTYPES & {tf.float32}),
          tf.constant([1, 2], tf.uint32), tf.constant([7], tf.uint64) + 1,
          tf.DType(1) == tf.float32, tf.float64.as_datatype_enum, tf.int32.is_numeric,
          tf.float32.is_compatible_with(tf.float32), tf.float32.is_compatible_with(tf.int32),
          tf.as_dtype("uint32").size, tf.int8.limits]
""",
    "set_shape": """
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    y = x * 2.0
    y.set_shape([4, None])
    result = [y.shape.as_list(), x.shape.as_list()]
""",
    "set_shape_incompatible": """
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    x.set_shape([4, 2])
""",
    "set_shape_rank": """
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    x.set_shape([4])
""",
}
