"""A generator trained with the sliced Wasserstein distance: both samples are projected on
fixed random unit directions, sorted along the batch (tf.sort, whose gradient routes back
through the sorting permutation), and matched quantile by quantile; a tf.Module generator
trained by RMSprop, with the per-direction distances printed."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(17)
target = np.concatenate(
    [rs.normal(size=(32, 2)) * 0.3 + [2.0, 1.0], rs.normal(size=(32, 2)) * 0.3 - [1.0, 2.0]]
).astype("float32")
noise = rs.normal(size=(64, 3)).astype("float32")
projections = rs.normal(size=(2, 8)).astype("float32")
projections /= np.linalg.norm(projections, axis=0, keepdims=True)


class Generator(tf.Module):
    def __init__(self):
        super().__init__()
        self.w1 = tf.Variable(rs.normal(scale=0.5, size=(3, 16)).astype("float32"))
        self.b1 = tf.Variable(np.zeros(16, "float32"))
        self.w2 = tf.Variable(rs.normal(scale=0.5, size=(16, 2)).astype("float32"))
        self.b2 = tf.Variable(np.zeros(2, "float32"))

    def __call__(self, z):
        return tf.matmul(tf.nn.leaky_relu(tf.matmul(z, self.w1) + self.b1, 0.2), self.w2) + self.b2


def sliced_wasserstein(a, b):
    pa = tf.sort(tf.matmul(a, projections), axis=0)
    pb = tf.sort(tf.matmul(b, projections), axis=0)
    per_direction = tf.reduce_mean(tf.square(pa - pb), axis=0)
    return tf.reduce_mean(per_direction), per_direction


gen = Generator()
optimizer = tf.keras.optimizers.RMSprop(0.01)
for step in range(25):
    with tf.GradientTape() as tape:
        loss, per_direction = sliced_wasserstein(gen(noise), target)
    grads = tape.gradient(loss, gen.trainable_variables)
    optimizer.apply_gradients(zip(grads, gen.trainable_variables))
    if step % 6 == 0:
        print(f"step {step} swd {float(loss):.5f}")
print("per direction", np.round(per_direction.numpy(), 4))
samples = gen(noise).numpy()
print("sample mean", np.round(samples.mean(0), 4), "std", np.round(samples.std(0), 4))
x = tf.constant([[3.0, 1.0], [1.0, 2.0], [2.0, 0.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    s = tf.sort(x, axis=0, direction="DESCENDING")
    y = tf.reduce_sum(s * tf.constant([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]))
print("sorted", s.numpy().tolist(), "grad", tape.gradient(y, x).numpy().tolist())
