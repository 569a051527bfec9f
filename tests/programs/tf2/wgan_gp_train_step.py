"""WGAN-GP in Keras: a Model subclass overrides train_step to take n_critic critic steps with
the gradient penalty (the critic's input-gradient norm at random interpolates, from an inner
tape, differentiated again w.r.t. the critic's weights), then one generator step; metrics
are tracked with keras.metrics.Mean and reported by fit."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(31)
real = (rng.normal(size=(24, 2)) * [0.3, 0.6] + [2.0, 0.0]).astype("float32")
latent = rng.normal(size=(24, 2)).astype("float32")
alphas = rng.uniform(size=(3, 8, 1)).astype("float32")


def mlp(sizes):
    model = tf.keras.Sequential([tf.keras.Input((sizes[0],))])
    for s in sizes[1:-1]:
        model.add(tf.keras.layers.Dense(s, activation="relu"))
    model.add(tf.keras.layers.Dense(sizes[-1]))
    model.set_weights(
        [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.weights]
    )
    return model


class WGANGP(tf.keras.Model):
    def __init__(self, n_critic=2, gp_weight=10.0):
        super().__init__()
        self.generator, self.critic = mlp([2, 8, 2]), mlp([2, 8, 1])
        self.n_critic, self.gp_weight = n_critic, gp_weight
        self.c_tracker = tf.keras.metrics.Mean(name="critic_loss")
        self.gp_tracker = tf.keras.metrics.Mean(name="gp")
        self.g_tracker = tf.keras.metrics.Mean(name="gen_loss")
        self.batch = tf.Variable(0, trainable=False)

    @property
    def metrics(self):
        return [self.c_tracker, self.gp_tracker, self.g_tracker]

    def compile(self, c_opt, g_opt):
        super().compile()
        self.c_opt, self.g_opt = c_opt, g_opt

    def train_step(self, data):
        x, z = data
        alpha = tf.gather(tf.constant(alphas), self.batch % 3)
        self.batch.assign_add(1)
        for _ in range(self.n_critic):
            with tf.GradientTape() as tape:
                fake = self.generator(z)
                mixed = alpha * x + (1.0 - alpha) * fake
                with tf.GradientTape() as gp_tape:
                    gp_tape.watch(mixed)
                    score = self.critic(mixed)
                grads = gp_tape.gradient(score, mixed)
                gp = tf.reduce_mean(tf.square(tf.norm(grads, axis=1) - 1.0))
                c_loss = tf.reduce_mean(self.critic(fake)) - tf.reduce_mean(self.critic(x))
                total = c_loss + self.gp_weight * gp
            cg = tape.gradient(total, self.critic.trainable_variables)
            self.c_opt.apply_gradients(zip(cg, self.critic.trainable_variables))
        with tf.GradientTape() as tape:
            g_loss = -tf.reduce_mean(self.critic(self.generator(z)))
        gg = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_opt.apply_gradients(zip(gg, self.generator.trainable_variables))
        self.c_tracker.update_state(c_loss)
        self.gp_tracker.update_state(gp)
        self.g_tracker.update_state(g_loss)
        return {m.name: m.result() for m in self.metrics}


gan = WGANGP()
gan.compile(
    tf.keras.optimizers.Adam(1e-3, beta_1=0.5, beta_2=0.9),
    tf.keras.optimizers.Adam(1e-3, beta_1=0.5, beta_2=0.9),
)
history = gan.fit(real, latent, batch_size=8, epochs=3, shuffle=False, verbose=0)
for key in ["critic_loss", "gen_loss", "gp"]:
    print(key, " ".join(f"{v:.5f}" for v in history.history[key]))
print("critic optimizer steps", int(gan.c_opt.iterations), "generator", int(gan.g_opt.iterations))
