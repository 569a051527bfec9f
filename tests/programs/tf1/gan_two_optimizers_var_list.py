"""A TF1 GAN training script: generator and discriminator built under their own
variable_scope (the discriminator's reused for real and fake inputs), their variables
collected by scope from the TRAINABLE_VARIABLES collection, and two AdamOptimizers each
minimising its own loss over its own var_list, alternated in one Session."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(29)
real_data = (rs.normal(size=(64, 2)) * 0.4 + [1.5, -0.5]).astype(np.float32)
noise_data = rs.normal(size=(64, 3)).astype(np.float32)


def init(name, shape):
    return tf.get_variable(name, initializer=rs.normal(scale=0.3, size=shape).astype(np.float32))


def generator(z):
    with tf.variable_scope("generator"):
        w1 = init("w1", [3, 8])
        b1 = tf.get_variable("b1", [8], initializer=tf.zeros_initializer())
        w2 = init("w2", [8, 2])
        return tf.matmul(tf.nn.leaky_relu(tf.matmul(z, w1) + b1), w2)


def discriminator(x, reuse):
    with tf.variable_scope("discriminator", reuse=reuse):
        w1 = init("w1", [2, 8])
        b1 = tf.get_variable("b1", [8], initializer=tf.zeros_initializer())
        w2 = init("w2", [8, 1])
        return tf.matmul(tf.nn.leaky_relu(tf.matmul(x, w1) + b1), w2)


x = tf.placeholder(tf.float32, [None, 2], name="x")
z = tf.placeholder(tf.float32, [None, 3], name="z")
fake = generator(z)
d_real = discriminator(x, reuse=False)
d_fake = discriminator(fake, reuse=True)

xent = tf.nn.sigmoid_cross_entropy_with_logits
d_loss = tf.reduce_mean(xent(labels=tf.ones_like(d_real), logits=d_real)) + tf.reduce_mean(
    xent(labels=tf.zeros_like(d_fake), logits=d_fake)
)
g_loss = tf.reduce_mean(xent(labels=tf.ones_like(d_fake), logits=d_fake))

t_vars = tf.trainable_variables()
d_vars = [v for v in t_vars if v.name.startswith("discriminator/")]
g_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="generator")
global_step = tf.train.get_or_create_global_step()
d_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(d_loss, var_list=d_vars)
g_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(
    g_loss, var_list=g_vars, global_step=global_step
)

print("d vars", [v.name for v in d_vars])
print("g vars", [v.name for v in g_vars])
print("all variables", len(tf.global_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(5):
        for start in range(0, 64, 16):
            feed = {x: real_data[start : start + 16], z: noise_data[start : start + 16]}
            dl = sess.run(d_loss, feed)
            sess.run(d_train, feed)
            gl = sess.run(g_loss, feed)
            sess.run(g_train, feed)
        print(f"epoch {epoch} d_loss {dl:.5f} g_loss {gl:.5f} step {sess.run(global_step)}")
    samples = sess.run(fake, {z: noise_data})
    print("fake mean", np.round(samples.mean(0), 4), "real mean", np.round(real_data.mean(0), 4))
