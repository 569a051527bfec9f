"""A physics-informed network for the viscous Burgers equation u_t + u u_x = nu u_xx on
x in [-1, 1], t in [0, 1], with u(0, x) = -sin(pi x) and u(t, +-1) = 0: the residual's
derivatives come from nested GradientTapes watching the collocation points, the whole
training step is a tf.function, and the weights are a plain list of tf.Variables."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(5)
NU = 0.01 / np.pi
layers = [2, 16, 16, 1]
weights = []
for fan_in, fan_out in zip(layers[:-1], layers[1:]):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    weights.append(tf.Variable(rs.uniform(-limit, limit, (fan_in, fan_out)).astype("float32")))
    weights.append(tf.Variable(np.zeros(fan_out, "float32")))

t_col = rs.uniform(0, 1, (64, 1)).astype("float32")
x_col = rs.uniform(-1, 1, (64, 1)).astype("float32")
x0 = np.linspace(-1, 1, 16, dtype="float32")[:, None]
u0 = -np.sin(np.pi * x0)
tb = rs.uniform(0, 1, (16, 1)).astype("float32")
xb = np.where(np.arange(16)[:, None] % 2 == 0, -1.0, 1.0).astype("float32")


def net(t, x):
    h = tf.concat([t, x], axis=1)
    for i in range(0, len(weights) - 2, 2):
        h = tf.tanh(tf.matmul(h, weights[i]) + weights[i + 1])
    return tf.matmul(h, weights[-2]) + weights[-1]


def residual(t, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch([t, x])
            u = net(t, x)
        u_x = inner.gradient(u, x)
        u_t = inner.gradient(u, t)
    u_xx = outer.gradient(u_x, x)
    return u_t + u * u_x - NU * u_xx


optimizer = tf.keras.optimizers.Adam(5e-3)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        f = residual(tf.constant(t_col), tf.constant(x_col))
        loss_f = tf.reduce_mean(tf.square(f))
        loss_0 = tf.reduce_mean(tf.square(net(tf.zeros_like(x0), x0) - u0))
        loss_b = tf.reduce_mean(tf.square(net(tb, xb)))
        loss = loss_f + loss_0 + loss_b
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return loss, loss_f, loss_0, loss_b


for step in range(40):
    loss, lf, l0, lb = train_step()
    if step % 8 == 0 or step == 39:
        print(
            f"step {step:2d} loss {float(loss):.6f} pde {float(lf):.6f} "
            f"initial {float(l0):.6f} boundary {float(lb):.6f}"
        )
grid_x = np.linspace(-1, 1, 5, dtype="float32")[:, None]
print("u(0.5, x)", np.round(net(tf.fill([5, 1], 0.5), grid_x).numpy().ravel(), 4))
print("traces", train_step.experimental_get_tracing_count())
