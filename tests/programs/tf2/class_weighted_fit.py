"""fit with class_weight on arrays and on a dataset (rare classes weigh more): the loss and
the weighted metrics use the weights, the plain metrics do not, as in Keras 3."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.normal(size=(12, 3)).astype("float32")
labels = rng.integers(0, 3, size=(12,))
onehot = tf.keras.utils.to_categorical(labels, 3)


def model(**kwargs):
    m = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros"),
        ]
    )
    m.compile(
        tf.keras.optimizers.SGD(0.1),
        tf.keras.losses.CategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
        **kwargs,
    )
    return m


def show(history):
    for key, values in sorted(history.history.items()):
        print(key, " ".join(f"{v:.6f}" for v in values))


m = model(weighted_metrics=["accuracy", "mae"])
show(
    m.fit(
        x, onehot, batch_size=4, epochs=2, shuffle=False, verbose=0, class_weight={0: 0.5, 2: 3.0}
    )
)
print(np.round(m.get_weights()[0], 6).tolist())

m = model()
dataset = tf.data.Dataset.from_tensor_slices((x, onehot)).batch(4)
show(m.fit(dataset, epochs=2, verbose=0, class_weight={0: 1.0, 1: 2.0, 2: 0.25}))

sparse = tf.keras.Sequential(
    [tf.keras.Input((3,)), tf.keras.layers.Dense(3, kernel_initializer="ones")]
)
sparse.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
show(
    sparse.fit(
        x, labels[:, None], batch_size=6, epochs=2, shuffle=False, verbose=0, class_weight={1: 4.0}
    )
)
