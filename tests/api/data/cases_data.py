"""tf.data's transformations, sources, iterators, options and experimental functions: the
elements as TensorFlow gives them. Plain code: no TensorFlow import here."""

CASES = {
    "restructuring": """
def out(ds):
    return [e for e in ds.as_numpy_iterator()]

r = tf.data.Dataset.range
result = [out(r(3).flat_map(lambda x: r(x))),
          out(r(1, 4).interleave(lambda x: r(x * 10, x * 10 + 3), cycle_length=2, block_length=2)),
          out(r(5).map(lambda x: tf.fill([x], x)).padded_batch(2)),
          out(r(5).map(lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[5],
                                                               padding_values=tf.constant(-1, tf.int64))),
          out(r(5).map(lambda x: (tf.fill([x], x), x)).padded_batch(3, drop_remainder=True)),
          out(r(10).batch(4).rebatch(3)),
          out(r(7).window(3, shift=2, stride=1).flat_map(lambda w: w.batch(3))),
          out(r(7).window(2, drop_remainder=True).flat_map(lambda w: w.batch(2))),
          out(r(4).apply(lambda ds: ds.map(lambda x: x * 2)))]
""",
    "stateful_selection": """
def out(ds):
    return [e for e in ds.as_numpy_iterator()]

r = tf.data.Dataset.range
result = [out(r(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))),
          r(5).reduce(tf.constant(0, tf.int64), lambda s, x: s + x),
          r(3).map(lambda x: (x, 2 * x)).reduce((tf.constant(0, tf.int64),
                                                 tf.constant(1, tf.int64)),
                                                lambda s, e: (s[0] + e[0], s[1] * (e[1] + 1))),
          out(r(10).shard(3, 1)), int(r(10).shard(3, 1).cardinality()),
          out(r(10).take_while(lambda x: x < 4)),
          out(tf.data.Dataset.from_tensor_slices([1, 3, 1, 2, 3]).unique()),
          out(r(6).group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=2)),
          r(1).get_single_element(),
          out(tf.data.Dataset.from_tensor_slices(tf.constant([[1], [1, ], [1]])).map(
              lambda x: tf.fill([x[0] + 1], x[0])).apply(tf.data.experimental.unbatch()))]
""",
    "single_element_errors": "tf.data.Dataset.range(2).get_single_element()",
    "shard_bad_index": "tf.data.Dataset.range(3).shard(2, 2)",
    "bucket": """
ds = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6, 7]).map(lambda n: tf.fill([n], n))
b = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2])
result = [e.tolist() for e in b.as_numpy_iterator()]
""",
    "sources": """
def out(ds):
    return [e for e in ds.as_numpy_iterator()]

r = tf.data.Dataset.range
result = [out(tf.data.Dataset.counter(5, 2).take(3)),
          out(tf.data.experimental.Counter(1, 3).take(2)),
          int(tf.data.Dataset.counter().cardinality()),
          out(tf.data.Dataset.choose_from_datasets([r(10), r(100, 110)],
                                                   tf.data.Dataset.from_tensor_slices(
                                                       tf.constant([0, 1, 1, 0], tf.int64)))),
          sorted(out(tf.data.Dataset.sample_from_datasets([r(3), r(10, 13)], seed=1))),
          tf.data.Dataset.random(seed=3).element_spec.dtype.name,
          int(tf.data.Dataset.random(seed=3).cardinality()),
          len(out(tf.data.Dataset.random(seed=3).take(4)))]
""",
    "iterators_options": """
it = iter(tf.data.Dataset.range(2))
first, second = it.get_next(), next(it)
opt = it.get_next_as_optional()
ni = tf.data.Dataset.range(2).as_numpy_iterator()
o = tf.data.Options()
o.deterministic = False
o.threading.private_threadpool_size = 2
ds = tf.data.Dataset.range(3).with_options(o)
result = [int(first), int(second), bool(opt.has_value()), isinstance(it, tf.data.Iterator),
          isinstance(ni, tf.data.NumpyIterator), ni.next(),
          ds.options().deterministic, ds.options().threading.private_threadpool_size,
          ds.options() == o, tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY,
          repr(tf.data.DatasetSpec.from_value(tf.data.Dataset.range(3)).element_spec.shape),
          isinstance(tf.data.IteratorSpec(tf.TensorSpec([])), tf.TypeSpec)]
""",
    "iterator_end": "it = iter(tf.data.Dataset.range(0)); it.get_next()",
    "options_unknown": "o = tf.data.Options(); o.not_an_option = 1",
    "experimental": """
e = tf.data.experimental
r = tf.data.Dataset.range
def out(ds):
    return [x for x in ds.as_numpy_iterator()]
result = [int(e.cardinality(r(4))), out(r(4).apply(e.assert_cardinality(4))),
          out(r(5).apply(e.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)))),
          out(r(3).apply(e.enumerate_dataset(5))), int(e.get_single_element(r(1))),
          out(e.from_list([(1, 2), (3, 4)])), int(e.at(r(5), 3)),
          out(r(4).apply(e.map_and_batch(lambda x: x + 1, 3))),
          sorted(out(r(4).apply(e.shuffle_and_repeat(4, 2, seed=1)))),
          e.get_structure(r(2)).dtype.name]
""",
    "assert_cardinality_fails": "list(tf.data.Dataset.range(3).apply(tf.data.experimental.assert_cardinality(5)))",
    "save_load_cache": """
import tempfile, os
d = tempfile.mkdtemp()
ds = tf.data.Dataset.range(4).map(lambda x: (x, tf.cast(x, tf.float32) * 0.5))
ds.save(os.path.join(d, "saved"))
loaded = tf.data.Dataset.load(os.path.join(d, "saved"))
cached = ds.cache(os.path.join(d, "cache"))
first, again = list(cached.as_numpy_iterator()), list(cached.as_numpy_iterator())
snap = ds.snapshot(os.path.join(d, "snap"))
result = [list(loaded.as_numpy_iterator()), first == again, len(first),
          list(snap.as_numpy_iterator()) == list(snap.as_numpy_iterator())]
""",
}
