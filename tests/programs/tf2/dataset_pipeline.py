"""A tf.data pipeline (from_tensor_slices, map, filter, batch, zip, take, skip, cache,
prefetch) feeding Model.fit and a tf.function training step."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(8)
features = rng.normal(size=(30, 2)).astype("float32")
targets = (features[:, :1] * 3.0 - features[:, 1:] + 0.5).astype("float32")

dataset = (
    tf.data.Dataset.from_tensor_slices((features, targets))
    .map(lambda x, y: (x * 2.0, y))
    .filter(lambda x, y: tf.reduce_sum(y) > -4.0)
    .cache()
    .batch(8)
    .prefetch(tf.data.AUTOTUNE)
)
print(dataset.element_spec[0].shape.as_list(), dataset.element_spec[0].dtype.name)
print([int(x.shape[0]) for x, _ in dataset])

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.set_weights([np.array([[0.1], [-0.2]], "float32"), np.array([0.05], "float32")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
history = model.fit(dataset, epochs=3, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))


optimizer = tf.keras.optimizers.Adam(0.05)


@tf.function
def train_epoch(ds):
    total = tf.constant(0.0)
    for x, y in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        total += loss
    return total


print(f"{float(train_epoch(dataset)):.6f}", f"{float(train_epoch(dataset)):.6f}")
print("iterations", int(optimizer.iterations.numpy()))
print(np.round(model.get_weights()[0].ravel(), 6).tolist())

numbers = tf.data.Dataset.range(10)
pairs = tf.data.Dataset.zip((numbers.skip(2).take(5), numbers.map(lambda i: i * i)))
print([(int(a), int(b)) for a, b in pairs.as_numpy_iterator()])
print(
    list(numbers.batch(4, drop_remainder=True).map(lambda b: tf.reduce_sum(b)).as_numpy_iterator())
)
