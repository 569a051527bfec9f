"""``tf.function``: TensorFlow's options, nested input signatures, functions called inside
traced functions (whatever their Python names), ``tf.hessians``. Plain code: no TensorFlow
import here."""

CASES = {
    "nested_input_signature": """
@tf.function(input_signature=[[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32)]])
def f(pair):
    a, b = pair
    return a * b
result = [f([tf.constant([1.0, 2.0]), tf.constant(3.0)]),
          f([tf.constant([4.0, 5.0]), tf.constant(-1.0)]),
          f.experimental_get_tracing_count()]
""",
    "dict_input_signature": """
@tf.function(input_signature=[{"x": tf.TensorSpec([None], tf.float32),
                               "y": tf.TensorSpec([None], tf.float32)}])
def f(d):
    return d["x"] + 2.0 * d["y"]
result = [f({"x": tf.constant([1.0]), "y": tf.constant([2.0])}),
          f({"x": tf.constant([1.0, 1.0]), "y": tf.constant([0.5, 3.0])}),
          f.experimental_get_tracing_count()]
""",
    "nested_function_names": """
inner = tf.function(lambda x: x * 2.0)
@tf.function
def _interpolate_inputs(x):
    return x + 1.0
names = []
@tf.function
def outer(x):
    a, b = inner(x), _interpolate_inputs(x)
    names.extend([a.name, a.op.type, b.name])
    return a + b
result = [outer(tf.constant(1.0)), names]
""",
    "options_accepted": """
@tf.function(jit_compile=True, reduce_retracing=True, experimental_implements="name",
             experimental_autograph_options=None, experimental_attributes={"_noinline": True},
             experimental_follow_type_hints=True)
def f(x):
    return x ** 2
g = tf.function(lambda x: x + 1.0, experimental_relax_shapes=True, experimental_compile=True)
result = [f(tf.constant(3.0)), g(tf.constant([1.0, 2.0])), g(tf.constant([1.0])),
          g.experimental_get_tracing_count()]
""",
    "autograph_off": """
@tf.function(autograph=False)
def f(x):
    return tf.cond(x > 0, lambda: x, lambda: -x)
result = [f(tf.constant(-2.0)), f(tf.constant(3.0))]
""",
    "unknown_option": "tf.function(lambda x: x, name='f')",
    "unknown_attribute": "tf.function(lambda x: x, experimental_attributes={'a': 1})",
    "hessians": """
@tf.function
def h(x):
    y = tf.reduce_sum(x ** 3) + x[0] * x[1]
    return tf.hessians(y, x)[0]
result = h(tf.constant([1.0, 2.0]))
""",
    "hessians_eager": "tf.hessians(tf.constant(1.0), tf.constant(1.0))",
    "gradients_stop_gradients": """
@tf.function
def f(x):
    a = x * x
    b = a + x
    return tf.gradients(b, x, stop_gradients=[a])[0]
result = f(tf.constant(3.0))
""",
    "py_function": """
@tf.function
def f(x):
    return tf.py_function(lambda v: v * float(v.numpy().sum()), [x], tf.float32)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(f(x))
result = [y, tape.gradient(y, x), tf.py_function(lambda a, b: a * b, [2.0, 3.0], tf.float32)]
""",
    "py_function_decorator": """
@tf.py_function(Tout=tf.float32)
def double(v):
    return v * 2.0
result = double(tf.constant([1.5]))
""",
    "numpy_function_decorator": """
@tf.numpy_function(Tout=tf.float32)
def halve(a):
    return a / 2
result = halve(tf.constant([3.0]))
""",
    "numpy_function_without_inp": "tf.numpy_function(lambda x: x * 2, Tout=tf.float32)",
    "py_function_without_tout": "tf.py_function(lambda x: x, [1.0])",
}
