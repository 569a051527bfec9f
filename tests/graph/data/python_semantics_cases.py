"""Programs that use Python as people write it inside a traced function: branches that return
a value they captured, recursion, ``global``/``nonlocal``, dicts and lists changed in
branches and loops, default arguments bound to outer names. Shared by the golden maker
(make_python_semantics_goldens.py, run on TensorFlow) and tests/graph/test_python_semantics.py
(plain data and functions: no TensorFlow import here).

Each case is ``case(tf, function)``: ``tf`` is the library, ``function`` is ``tf.function``
(traced) or the identity (eager); it returns numbers (or nests of them). ``EAGER_SAME``
names the cases whose traced result must equal the eager one.
"""

COUNTER = 0.0  # the global the global-statement cases assign


def cond_returns_capture(tf, function):
    @function
    def h(x):
        return tf.cond(x > 0, lambda: x * 2.0, lambda: x)

    return [float(h(tf.constant(-1.0))), float(h(tf.constant(3.0)))]


def if_expression_returns_argument(tf, function):
    @function
    def h(x):
        return x * 2.0 if x > 0 else x

    return [float(h(tf.constant(-1.0))), float(h(tf.constant(3.0)))]


def cond_returns_capture_gradient(tf, function):
    @function
    def h(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * x, lambda: x)
        return y, tape.gradient(y, x)

    return [[float(v) for v in h(tf.constant(c))] for c in (-2.0, 3.0)]


def while_returns_capture(tf, function):
    @function
    def h(x):
        return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, x), [0, 0.0])[1]

    return float(h(tf.constant(4.0)))


def session_cond_returns_placeholder(tf, function):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [])
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x)
        dy = tf.gradients(y, x)[0]
        with v1.Session() as session:
            return [[float(v) for v in session.run([y, dy], {x: c})] for c in (-1.0, 2.0)]


def custom_gradient_in_cond(tf, function):
    # TensorFlow issue 50170's program with the branch taken and not taken.
    w = tf.Variable(2.0, trainable=False)

    @function
    def test(x, take):
        @tf.custom_gradient
        def multiply_by_w(x):
            def grad_fn(grad_y):
                return grad_y * w

            return w * x, grad_fn

        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(take, lambda: multiply_by_w(x), lambda: x)
        return tape.gradient(y, x)

    return [float(test(tf.constant(5.0), tf.constant(t))) for t in (True, False)]


def _doubled(x, n):
    if n == 0:
        return x
    return _doubled(x * 2.0, n - 1)


def static_recursion(tf, function):
    return float(function(lambda x: _doubled(x, 3))(tf.constant(1.0)))


def static_self_recursion(tf, function):
    @function
    def doubled(x, n):
        if n == 0:
            return x
        return doubled(x * 2.0, n - 1)

    return float(doubled(tf.constant(1.0), 3))


def _grow(x):
    if x > 10.0:
        return x
    return _grow(x * 2.0)


def tensor_recursion(tf, function):
    return float(function(_grow)(tf.constant(1.0)))


def tensor_self_recursion(tf, function):
    @function
    def factorial(n):
        if n <= 1:
            return tf.constant(1)
        return n * factorial(n - 1)

    return int(factorial(tf.constant(4)))


def _add_to_counter_if_positive(x):
    global COUNTER
    if x > 0:
        COUNTER = COUNTER + x
    return COUNTER


def global_in_tensor_if(tf, function):
    global COUNTER
    COUNTER = 1.0
    return float(function(_add_to_counter_if_positive)(tf.constant(2.0)))


def _count_down_into_counter(x):
    global COUNTER
    while x > 0:
        COUNTER = COUNTER + x
        x = x - 1.0
    return x + COUNTER


def global_in_tensor_while(tf, function):
    global COUNTER
    COUNTER = 0.0
    return float(function(_count_down_into_counter)(tf.constant(3.0)))


def nonlocal_in_tensor_if(tf, function):
    c = 0.0

    @function
    def inner(x):
        nonlocal c
        if x > 0:  # noqa: SIM108 (the statement is the case)
            c = x * 3.0
        else:
            c = x
        return c + 1.0

    return [float(inner(tf.constant(2.0))), float(inner(tf.constant(-2.0)))]


def nonlocal_in_tensor_while(tf, function):
    c = tf.constant(0.0)

    @function
    def inner(x):
        nonlocal c
        while x > 0.0:
            c = c + x
            x = x - 1.0
        return c

    return float(inner(tf.constant(3.0)))


def dict_item_in_both_branches(tf, function):
    @function
    def h(x):
        d = {}
        if x > 0:
            d["a"] = x
        else:
            d["a"] = -x
        return d["a"]

    return [float(h(tf.constant(-2.0))), float(h(tf.constant(5.0)))]


def dict_item_in_one_branch(tf, function):
    @function
    def h(x):
        d = {"a": x, "b": x}
        if x > 0:
            d["a"] = x * 2.0
        return d["a"] + d["b"]

    return [float(h(tf.constant(3.0))), float(h(tf.constant(-3.0)))]


def dict_item_in_range_loop(tf, function):
    @function
    def h(x):
        d = {"a": x}
        for _ in tf.range(3):
            d["a"] = d["a"] + 1.0
        return d["a"]

    return float(h(tf.constant(1.0)))


def list_item_in_branches(tf, function):
    @function
    def h(x):
        values = [x, x]
        if x > 0:
            values[0] = x * 2.0
        else:
            values[-2] = x * 3.0
        return values[0] + values[1]

    return [float(h(tf.constant(3.0))), float(h(tf.constant(-1.0)))]


def attribute_in_tensor_while(tf, function):
    class Total:
        value = None

    @function
    def h(x):
        total = Total()
        total.value = x
        while total.value < 10.0:
            total.value = total.value * 2.0
        return total.value

    return float(h(tf.constant(3.0)))


def list_append_in_range_loop(tf, function):
    @function
    def h(x):
        values = []
        for i in tf.range(3):
            values.append(x * tf.cast(i, tf.float32))
        return tf.stack(values)

    return [float(v) for v in h(tf.constant(1.0))]


def list_append_in_tensor_if(tf, function):
    @function
    def h(x):
        values = []
        if x > 0:
            values.append(x * 2.0)
        else:
            values.append(-x)
        return values[0]

    return float(h(tf.constant(-3.0)))


def default_argument_bound_to_outer_name(tf, function):
    results = []
    for n in range(3):

        def scaled(x, n=n):
            return x * n

        results.append(float(function(scaled)(tf.constant(2.0))))
    return results


def annotated_arguments(tf, function):
    def scaled(x: "tf.Tensor", factor: float = 3.0) -> "tf.Tensor":
        if x > 0:
            x = x * factor
        return x

    return float(function(scaled)(tf.constant(2.0)))


CASES = {
    name: value
    for name, value in dict(globals()).items()
    if callable(value) and not name.startswith("_") and name.islower()
}

# Traced equals eager for these; the others are programs whose graph cannot exist (they
# raise when traced, as in TensorFlow) or that have no eager form (a v1 Session).
EAGER_SAME = sorted(
    set(CASES)
    - {
        "tensor_recursion",
        "tensor_self_recursion",
        "list_append_in_range_loop",
        "list_append_in_tensor_if",
        "session_cond_returns_placeholder",
    }
)

# Where TensorFlow 2.21 itself fails and retrograd gives the derivative (recorded, not
# copied): issue 50170's program raises AttributeError in TensorFlow.
TENSORFLOW_FAILS = {"custom_gradient_in_cond"}
