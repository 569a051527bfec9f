"""Execution state is per thread, as in TensorFlow: threads that train eagerly, trace
functions, build and run graphs and compute Jacobians at the same time each get the numbers
they get alone."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import retrograd as rg


def _train():
    """Eager training with a tape and an optimizer (auto-watched variable)."""
    w = rg.Variable([1.0, -2.0])
    opt = rg.keras.optimizers.SGD(learning_rate=0.1)
    for _ in range(5):
        with rg.GradientTape() as tape:
            loss = rg.reduce_sum(rg.square(w - [3.0, 4.0]))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    return w.numpy()


def _trace():
    """A new function traced each time (a graph is current in this thread while it traces),
    differentiated by a tape around the call."""
    f = rg.function(lambda x: rg.reduce_sum(rg.exp(x) * x))
    x = rg.constant([0.5, 1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return np.concatenate([[y.numpy()], tape.gradient(y, x).numpy()])


def _build():
    """A TF1 graph with name scopes, run by a Session entered as the default one."""
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [3], name="x")
        with rg.name_scope("layer"):
            y = rg.reduce_sum(rg.sin(x) * 2.0, name="y")
        (dx,) = rg.gradients(y, [x])
        with rg.compat.v1.Session() as sess:
            assert rg.compat.v1.get_default_session() is sess
            value, grad = sess.run([y, dx], {x: [0.1, 0.2, 0.3]})
    assert y.name == "layer/y:0", y.name
    assert rg.executing_eagerly()
    return np.concatenate([[value], grad])


def _jacobian():
    """A batched Jacobian (the walk sets per-thread batch state) and a plain gradient."""
    x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * rg.reduce_sum(x, axis=0)  # broadcast: unbroadcast sees the batch axes
        s = rg.reduce_sum(y)
    jac = tape.jacobian(y, x)
    return np.concatenate([jac.numpy().ravel(), tape.gradient(s, x).numpy().ravel()])


def _eager():
    """Plain eager ops must stay eager while other threads build graphs."""
    x = rg.constant([1.0, 2.0])
    for _ in range(5):
        x = rg.exp(x) * 0.5
        assert rg.executing_eagerly() and not isinstance(x, rg.Graph)
    return x.numpy()


WORKS = [_train, _trace, _build, _jacobian, _eager]


def _run_together(alone, copies):
    errors, results = [], {}
    barrier = threading.Barrier(len(WORKS) * copies)

    def worker(key, work):
        try:
            barrier.wait()
            results[key] = work()
        except BaseException as e:  # reported below, with the work's name
            errors.append(f"{work.__name__}: {type(e).__name__}: {e}")

    threads = [
        threading.Thread(target=worker, args=((w.__name__, c), w))
        for w in WORKS
        for c in range(copies)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for (name, _), value in results.items():
        np.testing.assert_allclose(value, alone[name], rtol=1e-6, err_msg=name)


@pytest.fixture
def fast_switching():
    """Threads switch every microsecond, so races show within a few rounds."""
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(saved)


def test_threads_get_the_numbers_they_get_alone(fast_switching):
    alone = {w.__name__: w() for w in WORKS}
    for _ in range(4):
        _run_together(alone, copies=2)
    assert rg.executing_eagerly()


def test_a_graph_current_in_one_thread_is_not_current_in_another():
    g = rg.Graph()
    entered, release = threading.Event(), threading.Event()
    seen = []

    def builder():
        with g.as_default(), rg.name_scope("mine"):
            entered.set()
            release.wait(5)
            seen.append(rg.constant(1.0).name)

    t = threading.Thread(target=builder)
    t.start()
    entered.wait(5)
    try:
        assert rg.executing_eagerly()
        assert rg.get_default_graph() is not g
        assert rg.exp(rg.constant(0.0)).numpy() == 1.0
        with g.as_default():
            assert rg.constant(2.0).name == "Const:0"  # no scope: the other thread's is its own
    finally:
        release.set()
        t.join()
    assert seen == ["mine/Const:0"]


def test_tapes_do_not_watch_other_threads_variables():
    v = rg.Variable(2.0)
    started, done = threading.Event(), threading.Event()
    watched = []

    def other():
        with rg.GradientTape() as tape:
            started.set()
            done.wait(5)
            watched.extend(tape.watched_variables())

    t = threading.Thread(target=other)
    t.start()
    started.wait(5)
    with rg.GradientTape() as mine:
        y = v * v
    done.set()
    t.join()
    assert watched == [] and mine.gradient(y, v).numpy() == 4.0


def test_each_thread_has_its_own_default_graph():
    mine = rg.compat.v1.get_default_graph()
    theirs = []
    t = threading.Thread(target=lambda: theirs.append(rg.compat.v1.get_default_graph()))
    t.start()
    t.join()
    assert theirs[0] is not mine  # as TensorFlow's: the default graph belongs to the thread


def _in_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_disable_eager_execution_is_the_process_default_for_new_threads():
    try:
        rg.compat.v1.disable_eager_execution()
        mode, graph = _in_thread(lambda: (rg.executing_eagerly(), rg.get_default_graph()))
        assert mode is False and graph is not rg.get_default_graph()
    finally:
        rg.compat.v1.enable_eager_execution()
    assert rg.executing_eagerly() and _in_thread(rg.executing_eagerly)


def test_numerics_checks_belong_to_the_thread_that_enabled_them():
    rg.debugging.enable_check_numerics()
    try:
        assert np.isnan(_in_thread(lambda: rg.math.log(rg.constant(-1.0)).numpy()))
        with pytest.raises(rg.errors.InvalidArgumentError):
            rg.math.log(rg.constant(-1.0))
    finally:
        rg.debugging.disable_check_numerics()


def _one_round_of_threads_calling_a_new_function():
    traced = []

    @rg.function
    def f(x):
        traced.append(x.shape.as_list())  # runs only while tracing
        return rg.reduce_sum(rg.exp(x) * x)

    inputs = [rg.constant([0.5, 1.0]), rg.constant([0.5, 1.0, 2.0])]
    expected = [float(np.sum(np.exp(x.numpy()) * x.numpy())) for x in inputs]
    barrier = threading.Barrier(8)
    errors, results = [], []

    def worker(i):
        try:
            barrier.wait()
            for _ in range(3):
                results.append((i % 2, float(f(inputs[i % 2]).numpy())))
        except BaseException as e:  # reported below
            errors.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # Threads never wait for another's trace: two of them may trace one new signature at
    # once (the Python function runs in both), and the first trace finished is kept.
    assert f.experimental_get_tracing_count() == 2
    assert sorted({tuple(shape) for shape in traced}) == [(2,), (3,)]
    concrete = [f.get_concrete_function(x) for x in inputs]
    assert all(f.get_concrete_function(x) is c for x, c in zip(inputs, concrete))
    assert len(results) == 24
    for which, value in results:
        np.testing.assert_allclose(value, expected[which], rtol=1e-6)


def test_threads_calling_one_new_function_keep_one_trace_per_signature(fast_switching):
    """Several threads call one new Function at once with two signatures: one trace per
    signature is kept (and counted), and every thread gets the right numbers."""
    for _ in range(5):
        _one_round_of_threads_calling_a_new_function()


def test_threads_binding_one_method_share_its_traces(fast_switching):
    """A ``function`` method looked up from several threads at once is one bound Function."""

    class Model:
        @rg.function
        def __call__(self, x):
            return x * 2.0

    model = Model()
    barrier = threading.Barrier(6)
    bound = []

    def worker():
        barrier.wait()
        bound.append(Model.__call__.__get__(model))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(b is bound[0] for b in bound)


def test_a_function_calling_itself_while_traced_is_still_an_error():
    @rg.function
    def f(x):
        return f(x)

    with pytest.raises(rg.errors.UnimplementedError, match="calls itself"):
        f(rg.constant(1.0))


def test_functions_calling_each_other_while_traced_in_two_threads_raise_not_hang():
    """F calls G and G calls F, first traced at once in two threads: no thread waits for
    the other's trace, so each traces both, reaches the function it is already tracing and
    gets the error the same calls give in one thread; neither hangs."""
    both_tracing = threading.Barrier(2)
    first = {"f": True, "g": True}

    @rg.function
    def f(x):
        if first["f"]:
            first["f"] = False
            both_tracing.wait()
        return g(x) + 1.0

    @rg.function
    def g(x):
        if first["g"]:
            first["g"] = False
            both_tracing.wait()
        return f(x) * 2.0

    errors = []

    def call(fn):
        try:
            fn(rg.constant(1.0))
        except rg.errors.UnimplementedError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=call, args=(fn,), daemon=True) for fn in (f, g)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "deadlocked"
    assert len(errors) == 2
    assert all("calls itself while traced" in e for e in errors), errors
