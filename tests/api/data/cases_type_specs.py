"""Type specs (``tf.TypeSpec`` and its kinds, ``type_spec_from_value``), ``get_static_value``,
the aggregation enumerations, ``tf.Operation``, ops' requested devices, the logger and the
scatters with subtraction, minimum and maximum. Plain code: no TensorFlow import here."""

SPEC = """
def spec(s):
    return [s.shape.as_list() if s.shape.rank is not None else None, s.dtype.name, s.name]
"""


CASES = {
    "tensor_spec_relations": SPEC
    + """
a, b = tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([None, 3], tf.float32)
result = [a.is_subtype_of(b), b.is_subtype_of(a), a.is_subtype_of(tf.TensorSpec(None)),
          spec(a.most_specific_common_supertype([tf.TensorSpec([4, 3])])),
          a.most_specific_common_supertype([tf.TensorSpec([2], tf.int32)]),
          spec(tf.TensorSpec.from_spec(a, "n")), isinstance(a, tf.TypeSpec),
          a.value_type is tf.Tensor, a.is_compatible_with(tf.zeros([2, 3])),
          a.is_compatible_with(b), hash(a) == hash(tf.TensorSpec([2, 3]))]
""",
    "type_spec_from_value": SPEC
    + """
ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
result = [spec(tf.type_spec_from_value(tf.constant([[1.0]]))),
          spec(tf.type_spec_from_value(np.zeros([2], np.float64))),
          spec(tf.type_spec_from_value(3)),
          tf.type_spec_from_value(None) == tf.NoneTensorSpec(),
          tf.type_spec_from_value(ta) == tf.TensorArraySpec([3], tf.float32),
          tf.type_spec_from_value(ta).value_type is tf.TensorArray]
""",
    "type_spec_of_object": "tf.type_spec_from_value(object())",
    "tensor_array_spec": """
s = tf.TensorArraySpec([2], tf.float32)
result = [s.is_compatible_with(tf.TensorArraySpec([None], tf.float32)),
          s.is_compatible_with(tf.TensorArraySpec([2], tf.int32)),
          s == tf.TensorArraySpec([2], tf.float32, dynamic_size=True),
          s == tf.TensorArraySpec([2], tf.float32)]
""",
    "other_specs": """
i = tf.IndexedSlicesSpec([4, 2], tf.float32)
o = tf.OptionalSpec(tf.TensorSpec([1]))
result = [i == tf.IndexedSlicesSpec([4, 2]), i == tf.IndexedSlicesSpec([4, 3]),
          i.value_type is tf.IndexedSlices, o == tf.OptionalSpec(tf.TensorSpec([1])),
          o == tf.OptionalSpec(tf.TensorSpec([2])),
          tf.NoneTensorSpec() == tf.NoneTensorSpec(), isinstance(o, tf.TypeSpec)]
""",
    "get_static_value_eager": """
result = [tf.get_static_value(tf.constant([1, 2])), tf.get_static_value(1.5),
          tf.get_static_value([1, 2])]
""",
    "get_static_value_graph": """
g = tf.Graph()
with g.as_default():
    c = tf.constant([1.0, 2.0])
    p = tf.compat.v1.placeholder(tf.float32, [None, 3])
    s = tf.shape(c)
    result = [tf.get_static_value(c), tf.get_static_value(p), tf.get_static_value(c * 2.0),
              tf.get_static_value(tf.shape(p)), tf.get_static_value(s),
              tf.get_static_value(tf.size(c)), tf.get_static_value(tf.rank(p)),
              tf.get_static_value(tf.cast(s, tf.float32)),
              tf.get_static_value(tf.concat([s, [4]], 0)), tf.get_static_value(tf.stack([s[0], 3])),
              tf.get_static_value(tf.fill([2], 3)), tf.get_static_value(tf.range(3)),
              tf.get_static_value(tf.equal(s, 2)), tf.get_static_value(tf.identity(c))]
""",
    "enums": """
result = [tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
          tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N,
          [repr(a) for a in tf.VariableAggregation], [repr(s) for s in tf.VariableSynchronization],
          str(tf.VariableAggregation.SUM), tf.VariableSynchronization(2).name,
          tf.VariableAggregation.MEAN.value]
""",
    "logger": "result = [tf.get_logger().name, tf.get_logger() is tf.get_logger()]",
    "operation_and_devices": """
g = tf.Graph()
with g.as_default():
    with tf.device("/job:w"):
        with tf.device("/cpu:0"):
            x = tf.constant(1.0, name="x")
            with tf.device(None):
                z = tf.constant(1.0)
        w = tf.constant(1.0)
    y = x + 1
    spec = tf.DeviceSpec(device_type="GPU", device_index=1)
    with tf.device(spec):
        v = tf.constant(1.0)
result = [isinstance(x.op, tf.Operation), x.device, x.op.device, y.device, z.device, w.device,
          v.device, x.op.colocation_groups(), [t.name for t in x.op.values()]]
""",
    "scatter_sub_min_max": """
t = tf.constant([[1.0, 5.0], [2.0, 2.0], [3.0, 0.0]])
u = tf.constant([[4.0, 4.0], [1.0, 6.0], [4.0, 4.0]])
i = [[0], [2], [0]]
result = [tf.tensor_scatter_nd_sub(t, i, u), tf.tensor_scatter_nd_min(t, i, u),
          tf.tensor_scatter_nd_max(t, i, u),
          tf.tensor_scatter_nd_max([1, 2, 3], [[5], [0]], [9, 9], bad_indices_policy="IGNORE")]
with tf.GradientTape(persistent=True) as tape:
    tape.watch([t, u])
    mx = tf.tensor_scatter_nd_max(t, i, u)
    mn = tf.tensor_scatter_nd_min(t, i, u)
result += tape.gradient(mx, [t, u]) + tape.gradient(mn, [t, u])
""",
    "scatter_max_out_of_range": "tf.tensor_scatter_nd_max([1, 2, 3], [[5]], [9])",
    "scatter_sub_bad_shape": "tf.tensor_scatter_nd_sub([1, 2, 3], [[1]], [9, 9])",
}
