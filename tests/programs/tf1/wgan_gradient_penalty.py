"""WGAN-GP critic step: the gradient penalty ||d critic(x_hat) / d x_hat|| - 1 through a
conv2d critic, differentiated again w.r.t. the critic's weights (double backprop), trained
with Adam(beta1=0.5, beta2=0.9)."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(4)
real = rng.rand(4, 5, 5, 1).astype(np.float32)
fake = rng.rand(4, 5, 5, 1).astype(np.float32) * 0.5
alpha = rng.rand(4, 1, 1, 1).astype(np.float32)

with tf.variable_scope("critic"):
    k = tf.get_variable("k", initializer=(rng.randn(3, 3, 1, 2) * 0.4).astype(np.float32))
    w = tf.get_variable("w", initializer=(rng.randn(5 * 5 * 2, 1) * 0.2).astype(np.float32))


def critic(images):
    h = tf.nn.conv2d(images, k, strides=[1, 1, 1, 1], padding="SAME")
    h = tf.nn.leaky_relu(h, alpha=0.2)
    return tf.matmul(tf.reshape(h, [-1, 5 * 5 * 2]), w)


x_real = tf.placeholder(tf.float32, [None, 5, 5, 1])
x_fake = tf.placeholder(tf.float32, [None, 5, 5, 1])
eps = tf.placeholder(tf.float32, [None, 1, 1, 1])
x_hat = eps * x_real + (1.0 - eps) * x_fake
grads = tf.gradients(critic(x_hat), [x_hat])[0]
slopes = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]) + 1e-12)
penalty = tf.reduce_mean((slopes - 1.0) ** 2)
loss = tf.reduce_mean(critic(x_fake)) - tf.reduce_mean(critic(x_real)) + 10.0 * penalty
critic_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="critic")
penalty_grads = tf.gradients(penalty, critic_vars)
train = tf.train.AdamOptimizer(1e-3, beta1=0.5, beta2=0.9).minimize(loss, var_list=critic_vars)

feed = {x_real: real, x_fake: fake, eps: alpha}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("slopes", sess.run(slopes, feed))
    print("penalty", sess.run(penalty, feed))
    for v, g in zip(critic_vars, sess.run(penalty_grads, feed)):
        print(v.name, "penalty grad", g.ravel()[:6])
    for step in range(5):
        _, lv = sess.run([train, loss], feed)
        print("step", step, "loss", lv)
