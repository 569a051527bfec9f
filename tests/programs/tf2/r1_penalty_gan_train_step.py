"""A GAN whose Keras Model overrides train_step: the discriminator is trained with the
non-saturating loss plus an R1 penalty (squared gradient norm of D on real data, from an
inner GradientTape), the generator with the non-saturating loss; compiled with two Adam
optimizers and run with fit."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(13)
real = (rng.normal(size=(32, 2)) * 0.5 + [1.0, -1.0]).astype("float32")
noise = rng.normal(size=(32, 3)).astype("float32")


def dense_net(sizes, name):
    layers = [tf.keras.Input((sizes[0],))]
    for i, s in enumerate(sizes[1:]):
        last = i == len(sizes) - 2
        layers.append(tf.keras.layers.Dense(s, activation=None if last else "tanh"))
    net = tf.keras.Sequential(layers, name=name)
    net.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32") for w in net.weights])
    return net


class GAN(tf.keras.Model):
    def __init__(self, gamma=1.0):
        super().__init__()
        self.gen = dense_net([3, 8, 2], "gen")
        self.disc = dense_net([2, 8, 1], "disc")
        self.gamma = gamma

    def compile(self, d_opt, g_opt):
        super().compile()
        self.d_opt, self.g_opt = d_opt, g_opt

    def train_step(self, data):
        x, z = data
        with tf.GradientTape() as d_tape:
            with tf.GradientTape() as r1_tape:
                r1_tape.watch(x)
                d_real = self.disc(x, training=True)
                d_sum = tf.reduce_sum(d_real)
            g_real = r1_tape.gradient(d_sum, x)
            r1 = tf.reduce_mean(tf.reduce_sum(tf.square(g_real), axis=1))
            d_fake = self.disc(self.gen(z, training=True), training=True)
            d_loss = tf.reduce_mean(tf.nn.softplus(-d_real) + tf.nn.softplus(d_fake))
            d_total = d_loss + 0.5 * self.gamma * r1
        grads = d_tape.gradient(d_total, self.disc.trainable_variables)
        self.d_opt.apply_gradients(zip(grads, self.disc.trainable_variables))
        with tf.GradientTape() as g_tape:
            g_loss = tf.reduce_mean(tf.nn.softplus(-self.disc(self.gen(z, training=True))))
        grads = g_tape.gradient(g_loss, self.gen.trainable_variables)
        self.g_opt.apply_gradients(zip(grads, self.gen.trainable_variables))
        return {"d_loss": d_loss, "r1": r1, "g_loss": g_loss}


gan = GAN()
gan.compile(tf.keras.optimizers.Adam(0.01, beta_1=0.5), tf.keras.optimizers.Adam(0.01, beta_1=0.5))
history = gan.fit(real, noise, batch_size=8, epochs=3, shuffle=False, verbose=0)
for key in ["d_loss", "g_loss", "r1"]:
    print(key, " ".join(f"{v:.5f}" for v in history.history[key]))
print("fake mean", np.round(gan.gen(noise[:8]).numpy().mean(axis=0), 4))
