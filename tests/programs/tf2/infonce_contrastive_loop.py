"""SimCLR-style InfoNCE: two augmented views through a shared encoder, cosine similarities
over temperature, cross-entropy against the diagonal, trained in a custom tf.function loop."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(11)
base = rng.normal(size=(8, 5)).astype("float32")
view_a = base + 0.1 * rng.normal(size=base.shape).astype("float32")
view_b = base * 0.9 + 0.1 * rng.normal(size=base.shape).astype("float32")

encoder = tf.keras.Sequential(
    [tf.keras.Input((5,)), tf.keras.layers.Dense(6, activation="relu"), tf.keras.layers.Dense(4)]
)
encoder.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in encoder.get_weights()]
)
optimizer = tf.keras.optimizers.SGD(0.2)


def info_nce(za, zb, temperature=0.5):
    za = tf.math.l2_normalize(za, axis=1)
    zb = tf.math.l2_normalize(zb, axis=1)
    logits = tf.matmul(za, zb, transpose_b=True) / temperature
    labels = tf.range(tf.shape(za)[0])
    loss_ab = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    loss_ba = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, tf.transpose(logits))
    return tf.reduce_mean(loss_ab + loss_ba) / 2.0, logits


@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss, logits = info_nce(encoder(a), encoder(b))
    grads = tape.gradient(loss, encoder.trainable_variables)
    optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
    accuracy = tf.reduce_mean(
        tf.cast(tf.equal(tf.argmax(logits, axis=1, output_type=tf.int32), tf.range(8)), tf.float32)
    )
    return loss, accuracy


for i in range(6):
    loss, acc = step(view_a, view_b)
    print(i, f"{float(loss):.6f}", f"{float(acc):.3f}")
