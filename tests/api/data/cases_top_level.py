"""Top-level functions: the N-D Fourier transforms, the general convolutions, approx_top_k,
CriticalSection and nondifferentiable_batch_function, as TensorFlow gives them. Plain code:
no TensorFlow import here."""

GRADS = """
def grads(f, *xs):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    return [y, tape.gradient(y, list(xs))]

def data(*shape, seed=0, dtype=np.float32):
    return tf.constant(np.random.default_rng(seed).normal(size=shape).astype(dtype))
"""

CASES = {
    # (TensorFlow 2.21 has no CPU kernels for FFTND, IFFTND, RFFTND and IRFFTND: retrograd's
    # transforms are checked against NumPy in tests/ops/test_fftnd_ops.py.)
    "fft_real_input": "tf.fftnd(tf.ones([2]), [2], [0])",
    "conv_general": GRADS
    + """
x, w = data(2, 5, 5, 4), data(3, 3, 2, 6, seed=1)
dy = data(2, 3, 3, 6, seed=2)
# (TensorFlow 2.21's CPU Conv has neither groups nor a gradient, and Conv2DBackprop*V2 no CPU
# kernel: retrograd's are checked with groups and as conv2d's gradients in
# tests/ops/test_fftnd_ops.py.)
result = [tf.conv(x, data(3, 3, 4, 6, seed=1), [1, 1, 1, 1], "VALID"),
          tf.conv(x, data(2, 2, 4, 3, seed=3), [1, 2, 2, 1], "SAME"),
          tf.conv(tf.reshape(x, [1, 2, 5, 5, 4]), data(2, 2, 4, 3, seed=3), [1, 1, 1, 1], "SAME",
                  batch_dims=2),
          tf.extract_volume_patches(data(1, 3, 4, 3, 2), [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
          tf.extract_volume_patches(data(1, 3, 4, 3, 2), [1, 2, 3, 1, 1], [1, 1, 1, 2, 1], "VALID")]
""",
    "approx_top_k": """
x = tf.constant([[1.0, 5.0, 3.0], [2.0, 0.0, 1.0]])
result = [tf.approx_top_k(x, 2), tf.approx_top_k(x, 1)]
""",
    # (TensorFlow 2.21's CriticalSection fails in eager mode: "Tensor.op is undefined";
    # retrograd's runs there too: tests/graph/test_batching.py.)
    "critical_section": """
@tf.function
def run():
    cs = tf.CriticalSection(name="cs")
    v = tf.constant(1.0)
    return cs.execute(lambda: v + 2.0)

result = run()
""",
    "batch_function": """
@tf.nondifferentiable_batch_function(1, 10, 100000)
def double(x):
    return x * 2.0

@tf.function
def run(x):
    return double(x)

result = run(tf.constant([1.0, 2.0]))
""",
}
