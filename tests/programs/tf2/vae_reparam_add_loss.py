"""A small VAE: the encoder's mean and log-variance feed the reparameterisation trick with
noise given as a second input, the KL term joins the loss through add_loss, fit + evaluate."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)
x = rng.normal(size=(32, 6)).astype("float32")
eps = rng.normal(size=(32, 2)).astype("float32")


class Sampling(tf.keras.layers.Layer):
    def call(self, inputs):
        mean, log_var, noise = inputs
        kl = -0.5 * tf.reduce_mean(
            tf.reduce_sum(1.0 + log_var - tf.square(mean) - tf.exp(log_var), axis=1)
        )
        self.add_loss(0.1 * kl)
        return mean + tf.exp(0.5 * log_var) * noise


x_in = tf.keras.Input((6,))
noise_in = tf.keras.Input((2,))
h = tf.keras.layers.Dense(8, activation="tanh")(x_in)
mean = tf.keras.layers.Dense(2)(h)
log_var = tf.keras.layers.Dense(2)(h)
z = Sampling()([mean, log_var, noise_in])
out = tf.keras.layers.Dense(6)(tf.keras.layers.Dense(8, activation="tanh")(z))
vae = tf.keras.Model([x_in, noise_in], out)
vae.set_weights([rng.normal(scale=0.4, size=w.shape).astype("float32") for w in vae.get_weights()])
vae.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
history = vae.fit([x, eps], x, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))
print("evaluate", round(float(vae.evaluate([x, eps], x, verbose=0)), 6))
print("recon", np.round(vae.predict([x[:2], eps[:2]], verbose=0), 5).ravel())
