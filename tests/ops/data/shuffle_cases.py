"""Programs whose permutations TensorFlow printed (shuffle_goldens.json, made by
make_shuffle_goldens.py) and retrograd must print too (tests/ops/test_shuffle_goldens.py):
``tf.random.shuffle`` under every kind of seed, eagerly, in a ``function`` and in a Session,
``tf.data.Dataset.shuffle``'s orders, and the index order of Keras' array adapter (``fit``'s
shuffle) over three passes. Each is source text run with ``tf`` (TensorFlow or retrograd)
and ``np`` in scope; it sets ``result``."""

SIZES = [2, 3, 10, 33, 257]

CASES = {
    "global_seed_repeated": """
result = []
for seed in (1, 5, 42, 2**40 + 3, -7):
    tf.random.set_seed(seed)
    result.append([tf.random.shuffle(tf.range(n)).numpy().tolist() for n in SIZES])
""",
    "op_seed_only_repeated": """
tf.random.set_seed(None)
result = [tf.random.shuffle(tf.range(n), seed=s).numpy().tolist()
          for s in (1, 3, -1, 2**31 + 4) for n in SIZES for _ in range(2)]
""",
    "both_seeds_continue": """
result = []
for seed, op_seed in ((1, 1), (5, 3), (0, 0), (0, 9), (123, 0)):
    tf.random.set_seed(seed)
    result.append([tf.random.shuffle(tf.range(n), seed=op_seed).numpy().tolist()
                   for n in SIZES for _ in range(2)])
""",
    "dtypes_and_shapes": """
tf.random.set_seed(3)
result = [
    tf.random.shuffle(tf.reshape(tf.range(24), [8, 3]), seed=2).numpy().tolist(),
    tf.random.shuffle(tf.constant([[1.5, 2.5]]), seed=2).numpy().tolist(),
    tf.random.shuffle(tf.constant(7), seed=2).numpy().tolist(),
    tf.random.shuffle(tf.range(10, dtype=tf.int64), seed=2).numpy().tolist(),
    tf.random.shuffle(tf.constant(np.linspace(0.0, 1.0, 7)), seed=2).numpy().tolist(),
    tf.random.shuffle(tf.range(10), seed=2).numpy().tolist(),
]
""",
    "seed_reset_restarts": """
tf.random.set_seed(9)
a = [tf.random.shuffle(tf.range(12)).numpy().tolist() for _ in range(3)]
tf.random.set_seed(9)
b = [tf.random.shuffle(tf.range(12)).numpy().tolist() for _ in range(3)]
result = [a, b]
""",
    "function_calls": """
tf.random.set_seed(2)

@tf.function
def f():
    u = tf.random.uniform([2])  # takes the graph's first op seed
    return tf.random.shuffle(tf.range(10)), tf.random.shuffle(tf.range(17), seed=4)

@tf.function
def g(x):
    return tf.random.shuffle(x)

result = [[t.numpy().tolist() for t in f()] for _ in range(3)]
result += [g(tf.range(9)).numpy().tolist() for _ in range(2)]
result += [g(tf.range(9, dtype=tf.int64)).numpy().tolist(), g(tf.range(9)).numpy().tolist()]
""",
    "session_runs": """
with tf.Graph().as_default():
    tf.compat.v1.set_random_seed(3)
    a = tf.random.shuffle(tf.range(10))
    b = tf.random.shuffle(tf.range(10), seed=8)
    with tf.compat.v1.Session() as sess:
        first = [sess.run([a, b]), sess.run([a, b])]
    with tf.compat.v1.Session() as sess:
        again = sess.run([a, b])
result = [[[v.tolist() for v in run] for run in first], [v.tolist() for v in again]]
tf.random.set_seed(None)
""",
    "dataset_shuffle": """
def passes(ds, count=2):
    return [[int(v) for v in ds] for _ in range(count)]

tf.random.set_seed(None)
result = [passes(tf.data.Dataset.range(10).shuffle(4, seed=3))]
result += [passes(tf.data.Dataset.range(n).shuffle(b, seed=s)) for n, b, s in
           ((1, 5, 1), (7, 1, 2), (25, 8, 11), (25, 100, -4), (300, 64, 2**32 + 9))]
result.append(passes(tf.data.Dataset.range(12).shuffle(5, seed=7,
                                                      reshuffle_each_iteration=False)))
result.append(passes(tf.data.Dataset.range(9).shuffle(4, seed=2).repeat(3), 1))
tf.random.set_seed(6)
result.append(passes(tf.data.Dataset.range(15).shuffle(6)))
result.append(passes(tf.data.Dataset.range(15).shuffle(6)))
tf.random.set_seed(6)
batched = tf.data.Dataset.range(15).shuffle(6, seed=1).batch(4)
result.append([[b.numpy().tolist() for b in batched] for _ in range(2)])
""",
    "dataset_pipelines": """
def passes(ds, count=2):
    return [[np.asarray(v).tolist() for v in ds] for _ in range(count)]

tf.random.set_seed(8)
base = tf.data.Dataset.range(12)
result = [
    passes(base.shuffle(12).map(lambda x: x * 3).batch(5)),
    passes(base.shuffle(5, seed=1).take(7).skip(2)),
    passes(tf.data.Dataset.zip((base.shuffle(6), base.shuffle(6, seed=2)))),
    passes(base.shuffle(4, seed=3).concatenate(base.shuffle(4, seed=3).take(3))),
    passes(base.shuffle(12, seed=5).filter(lambda x: x % 2 == 0).repeat(2)),
]
shuffled = base.shuffle(12, seed=9)
unused = iter(shuffled)  # an iterator made and never used draws its pass's seeds
result.append(passes(shuffled))
""",
    "dataset_function_seeds": """
tf.random.set_seed(1)
ds = tf.data.Dataset.range(3).map(lambda _: tf.random.shuffle(tf.range(10)))
result = [[t.numpy().tolist() for t in ds] for _ in range(2)]
result.append(tf.random.shuffle(tf.range(8)).numpy().tolist())  # (no eager seed was drawn)
pairs = tf.data.Dataset.range(4).map(
    lambda i: (tf.random.shuffle(tf.range(5), seed=3), tf.random.shuffle(tf.range(6))))
result.append([[a.numpy().tolist(), b.numpy().tolist()] for a, b in pairs])
kept = tf.data.Dataset.range(10).filter(lambda i: tf.random.shuffle(tf.range(4))[0] > 1)
result.append([[int(v) for v in kept] for _ in range(2)])
tf.random.set_seed(None)
seeded = tf.data.Dataset.range(2).map(lambda _: tf.random.shuffle(tf.range(7), seed=5))
result.append([t.numpy().tolist() for t in seeded])
""",
}

# The index order of Keras' array adapter (what fit trains on) over three passes: the first
# feature of each sample is its index.
ADAPTER_SIZES = [10, 13, 64, 300]
ADAPTER_SEEDS = [1, 42, 0, 2**33 + 1]
ADAPTER_BATCH = 8
