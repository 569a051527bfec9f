"""A contractive autoencoder: the penalty is the squared Frobenius norm of the encoder's
Jacobian per example (tape.batch_jacobian inside the training tape), checked once against
the full tape.jacobian, and minimised with reconstruction error by RMSprop."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(37)
data = rng.normal(size=(12, 5)).astype("float32")
encoder = tf.keras.layers.Dense(3, activation="sigmoid", name="encoder")
decoder = tf.keras.layers.Dense(5, name="decoder")
encoder.build((None, 5))
decoder.build((None, 3))
encoder.set_weights([rng.normal(scale=0.5, size=(5, 3)).astype("float32"), np.zeros(3, "float32")])
decoder.set_weights([rng.normal(scale=0.5, size=(3, 5)).astype("float32"), np.zeros(5, "float32")])

x = tf.constant(data[:2])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    h = encoder(x)
per_example = tape.batch_jacobian(h, x)
full = tape.jacobian(h, x)
print("batch_jacobian shape", per_example.shape.as_list(), "jacobian shape", full.shape.as_list())
print("diagonal blocks agree", bool(np.allclose(full[1, :, 1, :], per_example[1])))
print("cross blocks zero", float(tf.reduce_max(tf.abs(full[0, :, 1, :]))))

opt = tf.keras.optimizers.RMSprop(0.01)
variables = encoder.trainable_variables + decoder.trainable_variables
for step in range(6):
    x = tf.constant(data)
    with tf.GradientTape() as tape:
        with tf.GradientTape() as jac_tape:
            jac_tape.watch(x)
            h = encoder(x)
        jac = jac_tape.batch_jacobian(h, x)
        contractive = tf.reduce_mean(tf.reduce_sum(tf.square(jac), axis=[1, 2]))
        recon = tf.reduce_mean(tf.square(decoder(h) - x))
        loss = recon + 0.5 * contractive
    opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    print(f"step {step} recon {float(recon):.5f} contractive {float(contractive):.5f}")
