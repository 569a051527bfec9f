"""A vector-quantised autoencoder (VQ-VAE): encoder outputs snap to their nearest codebook
vector, the decoder sees the quantised codes with a straight-through gradient
(z + stop_gradient(q - z)), and the loss adds the codebook term ||sg(z) - q||^2 and the
commitment term beta ||z - sg(q)||^2; trained with a custom loop, codebook usage printed."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(8)
centers = rs.normal(scale=2.0, size=(3, 4)).astype("float32")
data = (centers[rs.randint(0, 3, 60)] + 0.2 * rs.normal(size=(60, 4))).astype("float32")


class VectorQuantizer(tf.keras.layers.Layer):
    def __init__(self, num_codes, dim, beta=0.25, **kwargs):
        super().__init__(**kwargs)
        self.beta = beta
        self.codebook = self.add_weight(
            shape=(num_codes, dim),
            initializer=tf.keras.initializers.Constant(rs.normal(size=(num_codes, dim))),
            name="codebook",
        )

    def call(self, z):
        distances = (
            tf.reduce_sum(z**2, axis=1, keepdims=True)
            - 2.0 * tf.matmul(z, self.codebook, transpose_b=True)
            + tf.reduce_sum(self.codebook**2, axis=1)
        )
        codes = tf.argmin(distances, axis=1)
        q = tf.gather(self.codebook, codes)
        codebook_loss = tf.reduce_mean(tf.square(tf.stop_gradient(z) - q))
        commitment = tf.reduce_mean(tf.square(z - tf.stop_gradient(q)))
        self.add_loss(codebook_loss + self.beta * commitment)
        return z + tf.stop_gradient(q - z), codes


encoder = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)]
)
decoder = tf.keras.Sequential(
    [tf.keras.Input((2,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(4)]
)
for net in (encoder, decoder):
    net.set_weights([rs.normal(scale=0.5, size=w.shape).astype("float32") for w in net.weights])
vq = VectorQuantizer(5, 2)
vq.build((None, 2))
variables = encoder.trainable_variables + vq.trainable_variables + decoder.trainable_variables
optimizer = tf.keras.optimizers.Adam(0.03)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        quantised, codes = vq(encoder(batch))
        recon = tf.reduce_mean(tf.square(decoder(quantised) - batch))
        vq_loss = tf.add_n(vq.losses)
        loss = recon + vq_loss
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return recon, vq_loss, codes


for epoch in range(6):
    for start in range(0, 60, 20):
        recon, vq_loss, codes = train_step(tf.constant(data[start : start + 20]))
    print(f"epoch {epoch} recon {float(recon):.5f} vq {float(vq_loss):.5f}")
_, codes = vq(encoder(data))
print("code usage", np.bincount(codes.numpy(), minlength=5).tolist())
print("codebook", np.round(vq.codebook.numpy().astype("float64"), 4).tolist())
