"""``tf.TensorArray`` eagerly, in functions (loops over tensors) and under tapes. Plain
code: no TensorFlow import here."""

CASES = {
    "eager_basics": """
ta = tf.TensorArray(tf.float32, size=3)
ta = ta.write(0, 1.0)
result = [ta.stack(), ta.read(1), ta.size(), ta.dtype.name, ta.element_shape.as_list(),
          ta.dynamic_size]
""",
    "eager_dynamic": """
ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
for i in range(3):
    ta = ta.write(i, [float(i), 1.0])
result = [ta.stack(), ta.size(), ta.gather([2, 0]), ta.concat(), ta.element_shape.as_list()]
""",
    "eager_write_in_place": """
ta = tf.TensorArray(tf.int32, size=2)
ta.write(0, 5)
ta.write(1, 6)
result = ta.stack()
""",
    "eager_unstack_scatter_split": """
a = tf.TensorArray(tf.float32, size=2, element_shape=[2]).unstack([[1., 2.], [3., 4.]])
b = tf.TensorArray(tf.int32, size=3).scatter([2, 0], [7, 5])
c = tf.TensorArray(tf.float32, size=2).split([1., 2., 3.], [1, 2])
result = [a.read(1), a.stack(), b.stack(), c.read(1), c.size()]
""",
    "eager_write_past_size": """
ta = tf.TensorArray(tf.float32, size=3)
ta.write(5, 2.0)
""",
    "eager_incompatible_shape": """
ta = tf.TensorArray(tf.float32, size=2)
ta = ta.write(0, 1.0)
ta.write(1, [2.0])
""",
    "empty_with_shape": "result = tf.TensorArray(tf.float32, size=0, element_shape=[2]).stack()",
    "eager_gradient": """
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    ta = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        ta = ta.write(i, x[i] * x[i])
    y = tf.reduce_sum(ta.stack() * tf.constant([1.0, 10.0, 100.0]))
result = [y, tape.gradient(y, x)]
""",
    "function_loop": """
@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
    return ta.stack()
result = [squares(tf.constant(4)), squares(tf.constant(2))]
""",
    "function_dynamic_gradient": """
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        ta = ta.write(i, tf.sin(x[i]) * x[i])
    return tf.reduce_sum(ta.stack() * tf.range(1.0, 4.0))
x = tf.constant([0.5, 1.0, 1.5])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
result = [y, tape.gradient(y, x)]
""",
    "function_rnn_like": """
@tf.function
def run(xs, w):
    steps = tf.shape(xs)[0]
    outputs = tf.TensorArray(tf.float32, size=steps)
    h = tf.zeros([2])
    for t in tf.range(steps):
        h = tf.tanh(w * h + xs[t])
        outputs = outputs.write(t, h)
    return outputs.stack()
xs = tf.constant([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5], [-0.2, 0.1]])
w = tf.constant(0.7)
with tf.GradientTape() as tape:
    tape.watch(w)
    out = run(xs, w)
    loss = tf.reduce_sum(out ** 2)
result = [out, tape.gradient(loss, w)]
""",
    "function_read_and_gather": """
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=3).unstack(x)
    return ta.read(1) * 2.0, ta.gather([2, 0]), ta.size()
result = list(f(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])))
""",
    "function_gradient_of_read": """
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=3).unstack(x)
    return tf.reduce_sum(ta.read(1) * ta.read(2)) + tf.reduce_sum(ta.gather([0, 2]) * 3.0)
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
result = [y, tape.gradient(y, x)]
""",
    "function_concat_split": """
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(x, [1, 2])
    return ta.concat() * 3.0, ta.read(1)
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    a, b = f(x)
    y = tf.reduce_sum(a * tf.constant([1.0, 2.0, 3.0])) + tf.reduce_sum(b)
result = [a, b, tape.gradient(y, x)]
""",
}
