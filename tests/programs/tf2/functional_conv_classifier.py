"""A small convolutional classifier built with the functional API (two inputs merged),
trained with fit and validation data, then evaluated and used to predict."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(6)
images = rng.normal(size=(24, 6, 6, 1)).astype("float32")
extra = rng.normal(size=(24, 2)).astype("float32")
labels = (images.mean(axis=(1, 2, 3)) > 0).astype("int32") + (extra[:, 0] > 1).astype("int32")

image_in = tf.keras.Input((6, 6, 1))
extra_in = tf.keras.Input((2,))
h = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")(image_in)
h = tf.keras.layers.MaxPooling2D()(h)
h = tf.keras.layers.Conv2D(4, 2, activation="relu")(h)
h = tf.keras.layers.GlobalAveragePooling2D()(h)
h = tf.keras.layers.Concatenate()([h, tf.keras.layers.Dense(3, activation="tanh")(extra_in)])
logits = tf.keras.layers.Dense(3)(h)
model = tf.keras.Model(inputs=[image_in, extra_in], outputs=logits)
model.set_weights(
    [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([layer.__class__.__name__ for layer in model.layers])
print(model.count_params())

model.compile(
    optimizer=tf.keras.optimizers.RMSprop(0.01),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["sparse_categorical_accuracy"],
)
history = model.fit(
    [images[:16], extra[:16]],
    labels[:16],
    batch_size=8,
    epochs=3,
    shuffle=False,
    verbose=0,
    validation_data=([images[16:], extra[16:]], labels[16:]),
)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
print(np.round(model.evaluate([images, extra], labels, verbose=0), 5).tolist())
print(np.round(model.predict([images[:2], extra[:2]], verbose=0), 6).tolist())
