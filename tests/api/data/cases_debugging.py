"""``tf.debugging``'s assertions and switches, and the top-level ``tf.assert_*``. Plain
code: no TensorFlow import here."""

CASES = {
    "assert_shapes": """
x, y, z = tf.zeros([2, 3]), tf.zeros([3]), tf.zeros([2, 4])
result = [tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("Q",)), (z, ("N", 4))]),
          tf.debugging.assert_shapes([(x, ("*", "Q")), (y, ("Q",))]),
          tf.debugging.assert_shapes([(x, (".", 3))]),
          tf.debugging.assert_shapes([(tf.zeros([]), ())]),
          tf.debugging.assert_shapes([(tf.zeros([]), ("N",))])]
""",
    "assert_shapes_conflict": "tf.debugging.assert_shapes([(tf.zeros([2, 3]), ('N', 'Q')), (tf.zeros([2, 4]), ('N', 'Q'))])",
    "assert_shapes_rank": "tf.debugging.assert_shapes([(tf.zeros([2, 3]), (2,))])",
    "assert_shapes_size": "tf.debugging.assert_shapes([(tf.zeros([2, 3]), (2, 4))])",
    "assert_rank_at_least": "tf.debugging.assert_rank_at_least(tf.zeros([3]), 2)",
    "assert_rank_in": "tf.debugging.assert_rank_in(tf.zeros([3]), [0, 2])",
    "assert_scalar": "tf.debugging.assert_scalar(tf.zeros([3]))",
    "assert_integer": "tf.debugging.assert_integer(tf.zeros([3]))",
    "assert_proper_iterable_tensor": "tf.debugging.assert_proper_iterable(tf.zeros([3]))",
    "assert_proper_iterable_int": "tf.debugging.assert_proper_iterable(5)",
    "assert_same_float_dtype_mixed": "tf.debugging.assert_same_float_dtype([tf.zeros([1]), tf.zeros([1], tf.float64)])",
    "assert_same_float_dtype_int": "tf.debugging.assert_same_float_dtype([tf.zeros([1], tf.int32)])",
    "passing_checks": """
d = tf.debugging
result = [d.assert_proper_iterable([1]), d.assert_same_float_dtype([tf.zeros([1])]).name,
          d.assert_same_float_dtype().name, d.assert_same_float_dtype(None, tf.float64).name,
          d.assert_all_finite(tf.constant([1.0]), "m"), d.is_numeric_tensor(tf.constant([1])),
          d.is_numeric_tensor(tf.constant(True)), d.is_numeric_tensor(1.0),
          d.assert_rank_at_least(tf.zeros([2, 3]), 1), d.assert_rank_in(tf.zeros([3]), [0, 1]),
          d.assert_scalar(tf.constant(1.0)), d.assert_integer(tf.constant([1]))]
""",
    "assert_all_finite_nan": "tf.debugging.assert_all_finite(tf.constant([1.0, float('nan')]), 'm')",
    "switches": """
d = tf.debugging
before = [d.is_traceback_filtering_enabled(), d.get_log_device_placement()]
d.disable_traceback_filtering()
off = d.is_traceback_filtering_enabled()
d.enable_traceback_filtering()
result = before + [off, d.is_traceback_filtering_enabled()]
""",
    "top_level_asserts": """
result = [tf.assert_equal([1, 2], [1, 2]), tf.assert_less([1, 2], [2, 3]),
          tf.assert_greater([3], [2]), tf.assert_rank(tf.zeros([2, 2]), 2)]
""",
    "top_level_assert_less_fails": "tf.assert_less([1, 3], [2, 3])",
    "assert_none_equal_order": "result = tf.debugging.assert_none_equal([1, 2], [3, 4], 2, 'msg')",
}
