"""Gaps found by the real programs of issue 22: a variable created on the first call of a
tf.function from the function's own tensors, TensorShape and Variable given an int shape,
and a subclassed Model's default build (marked built, no weights until it is called). Plain
code: no TensorFlow import."""

CASES = {
    "variable_from_function_input": """
class Accumulator(tf.Module):
    def __init__(self):
        self.total = None

    @tf.function
    def __call__(self, v):
        if self.total is None:
            self.total = tf.Variable(tf.zeros_like(v))
        self.total.assign_add(v)
        return self.total.read_value()

acc = Accumulator()
first = acc(tf.constant([1.0, 2.0]))
second = acc(tf.constant([0.5, 0.5]))
result = [first, second, acc.total.read_value(), acc.total.dtype.name, acc.total.shape.as_list()]
""",
    "variable_from_captured_tensors": """
w = tf.Variable([3.0, 4.0], dtype=tf.float64)
state = {}

@tf.function
def step(x):
    if "m" not in state:
        state["m"] = tf.Variable(tf.zeros_like(w) + 2.0 * tf.ones_like(w), trainable=False)
    state["m"].assign(state["m"] * 0.5 + x)
    return state["m"].read_value()

result = [step(tf.constant([1.0, 1.0], tf.float64)), step(tf.constant([1.0, 0.0], tf.float64)),
          state["m"].trainable]
""",
    "variable_in_function_gradient": """
holder = []

@tf.function
def loss(x):
    if not holder:
        holder.append(tf.Variable(tf.ones_like(x) * 3.0))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(holder[0] * holder[0] * x)
    return tape.gradient(y, holder[0])

result = [loss(tf.constant([1.0, 2.0])), loss(tf.constant([1.0, 2.0]))]
""",
    "tensor_shape_of_an_int": """
result = [tf.TensorShape(2).as_list(), tf.TensorShape(0).as_list(), tf.TensorShape(2).rank,
          tf.TensorShape(np.int64(3)).as_list(), tf.TensorShape(None).rank]
""",
    "tensor_shape_of_a_float": "tf.TensorShape(2.0)",
    "variable_with_an_int_shape": """
v = tf.Variable([1.0, 2.0], shape=2)
result = [v.shape.as_list(), v.read_value()]
""",
    "variable_with_a_wrong_int_shape": "tf.Variable([1.0, 2.0], shape=3)",
    "model_default_build_makes_no_weights": """
import warnings

class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.dense(x)

net = Net()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    net.build((None, 2))
warned = [str(w.message).startswith("`build()` was called on layer") for w in caught]
before = [net.built, len(net.weights), net.dense.built, net.count_params()]
out = net(tf.ones((1, 2)))
result = [warned, before, [len(net.weights), net.dense.built, out.shape.as_list()]]
""",
    "model_with_its_own_build_makes_weights": """
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(3)

    def build(self, input_shape):
        self.dense.build(input_shape)

    def call(self, x):
        return self.dense(x)

net = Net()
net.build((None, 2))
result = [net.built, [w.shape.as_list() for w in net.weights]]
""",
    "layer_default_build_with_built_sublayers": """
import warnings

class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.inner(x)

block = Block()
block.inner.build((None, 4))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    block.build((None, 4))
result = [len(caught), block.built, len(block.weights)]
""",
}
