"""A token classifier: Embedding, Flatten, Dense with L2 kernel regularization and
categorical targets from to_categorical; losses include the penalty. Trained by Adam: the
embedding's gradient is an IndexedSlices (ids repeat within a batch), applied sparsely."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(11)
tokens = rng.integers(0, 12, size=(30, 4)).astype("int32")
classes = (tokens.sum(axis=1) % 3).astype("int32")
targets = tf.keras.utils.to_categorical(classes, num_classes=3)

model = tf.keras.Sequential(
    [
        tf.keras.Input((4,), dtype="int32"),
        tf.keras.layers.Embedding(12, 3),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(
            3, activation="softmax", kernel_regularizer=tf.keras.regularizers.L2(0.01)
        ),
    ]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
print("penalty", f"{float(tf.add_n(model.losses)):.6f}")
model.compile(
    optimizer=tf.keras.optimizers.Adam(0.05), loss="categorical_crossentropy", metrics=["accuracy"]
)
history = model.fit(tokens, targets, batch_size=10, epochs=3, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))
print(" ".join(f"{v:.4f}" for v in history.history["accuracy"]))
print(np.round(model.train_on_batch(tokens[:10], targets[:10]), 6).tolist())
print(np.round(model.predict(tokens[:2], verbose=0), 5).tolist())
with tf.GradientTape() as tape:
    score = tf.reduce_sum(model(tokens[:2]) * targets[:2])
grads = tape.gradient(score, model.trainable_variables)
print([isinstance(g, tf.IndexedSlices) for g in grads])
print(np.round(tf.convert_to_tensor(grads[0]).numpy(), 6).tolist())
