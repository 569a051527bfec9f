"""``fit`` with its default shuffle (and ``shuffle="batch"``), on a small Dense model after
``keras.utils.set_random_seed``: the loss histories that Keras 3 on TensorFlow 2.21 printed
(fit_shuffle_goldens.json, made by make_fit_shuffle_goldens.py) and retrograd must print
(tests/keras/test_fit_shuffle_goldens.py); and ``fit`` over shuffled ``tf.data`` datasets
(Keras makes a spare iterator at the end of each epoch: a shuffle's seeds skip a pass). Each
case is source text run with ``tf``, ``keras`` and ``np`` in scope; it sets ``result`` to
lists of numbers rounded to 6 decimals."""

SETUP = """
keras.utils.set_random_seed(SEED)
rs = np.random.RandomState(0)
x = rs.normal(size=(N, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.1 * rs.normal(size=(N, 1))).astype("float32")
labels = (x[:, :1] + x[:, 1:2] > 0).astype("int32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                          keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
classifier = keras.Sequential([keras.Input((3,)), keras.layers.Dense(5, activation="relu"),
                               keras.layers.Dense(2)])
classifier.compile(optimizer=keras.optimizers.Adam(0.05),
                   loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                   metrics=["accuracy"])


def losses(history):
    return {k: [round(float(v), 6) for v in vs] for k, vs in sorted(history.history.items())}
"""

CASES = {
    "defaults": "result = losses(model.fit(x, y, epochs=4, verbose=0))",
    "batch_size": "result = losses(model.fit(x, y, batch_size=8, epochs=4, verbose=0))",
    "validation_split": """
result = losses(model.fit(x, y, batch_size=8, epochs=3, validation_split=0.25, verbose=0))
""",
    "shuffle_batch": """
result = losses(model.fit(x, y, batch_size=8, epochs=3, shuffle="batch", verbose=0))
""",
    "steps_per_epoch": """
result = losses(model.fit(x, y, batch_size=8, epochs=4, steps_per_epoch=4, verbose=0))
""",
    "steps_per_epoch_without_batch_size": """
result = losses(model.fit(x, y, epochs=3, steps_per_epoch=3, verbose=0))
""",
    "class_weight": """
result = losses(classifier.fit(x, labels, batch_size=8, epochs=3, verbose=0,
                               class_weight={0: 0.3, 1: 2.0}))
""",
    "sample_weight_with_validation": """
w = np.linspace(0.2, 2.0, N).astype("float32")
result = losses(model.fit(x, y, batch_size=8, epochs=3, verbose=0, sample_weight=w,
                          validation_split=0.2))
""",
    "dataset_shuffled": """
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(N).batch(8)
result = losses(model.fit(ds, epochs=4, verbose=0))
""",
    "dataset_map_steps_per_execution": """
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", steps_per_execution=3)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(20, seed=4).map(lambda a, b: (a * 2, b))
result = losses(model.fit(ds.batch(10), epochs=3, verbose=0))
""",
    "dataset_repeat_steps_per_epoch": """
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(16).batch(8).repeat()
result = losses(model.fit(ds, epochs=3, steps_per_epoch=5, verbose=0))
""",
    "two_fits_in_a_row": """
first = losses(model.fit(x, y, batch_size=16, epochs=2, verbose=0))
result = [first, losses(model.fit(x, y, batch_size=16, epochs=2, verbose=0))]
""",
}

RUNS = [(name, seed, n) for name in CASES for seed, n in ((7, 50), (123, 77))]
