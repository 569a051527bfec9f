"""Training workloads beside TensorFlow, PyTorch and JAX: ``python -m benchmarks.training``.

Each workload is written once as TensorFlow code and run with ``tf`` bound to retrograd and,
in a process of its own, to TensorFlow (``--framework-python`` names an interpreter that has
it); PyTorch and JAX run hand-written loops of the same model (``training_peers``) where an
interpreter has them. Every framework runs in a fresh process per workload and thread
setting, with one thread (BLAS, intra-op and inter-op pools capped) and with its default
threads. A row gives the median seconds of a timed unit (an epoch of ``fit``, or a number
of training steps) over ``--runs`` units after an untimed warm-up unit (tracing, building),
the peak resident memory of the process above its footprint after importing the framework
(data, model, tracing and training together), and
the ratios of retrograd's time to each peer's in the same run. The machine these run on is
shared: compare ratios from one run, never absolute times across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _sizes(quick: bool) -> dict:
    if quick:
        return {"mlp": 512, "cnn": 2, "rnn": 64, "pinn": 2, "dann": 2, "session": 5}
    return {"mlp": 12_000, "cnn": 10, "rnn": 640, "pinn": 20, "dann": 20, "session": 200}


# --- the workloads, as TensorFlow code (``tf`` is retrograd or TensorFlow) ------------------


def mlp_fit(tf, n):
    """Keras MLP 784-256-256-10, Adam, one epoch of ``fit`` (batch 128, shuffled)."""
    keras = tf.keras
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 784)).astype("float32")
    y = rng.integers(0, 10, n)
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [
            keras.Input((784,)),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(10),
        ]
    )
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=loss)
    return lambda: model.fit(x, y, batch_size=128, epochs=1, verbose=0)


def _cnn(tf, steps, traced):
    keras = tf.keras
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((64, 28, 28, 1)).astype("float32"))
    y = tf.constant(rng.integers(0, 10, 64))
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [
            keras.Input((28, 28, 1)),
            keras.layers.Conv2D(32, 3, activation="relu"),
            keras.layers.Conv2D(64, 3, activation="relu"),
            keras.layers.MaxPooling2D(2),
            keras.layers.Flatten(),
            keras.layers.Dense(10),
        ]
    )
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(1e-3)

    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    step = tf.function(step) if traced else step
    return lambda: [step() for _ in range(steps)]


def cnn_eager(tf, steps):
    """CNN: conv 3x3 32, conv 3x3 64, max-pool 2, dense 10 on 64 28x28 images; tape + Adam,
    eagerly."""
    return _cnn(tf, steps, traced=False)


def cnn_function(tf, steps):
    """The CNN's training step under ``function``."""
    return _cnn(tf, steps, traced=True)


def _rnn_fit(tf, n, layer):
    keras = tf.keras
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 50, 8)).astype("float32")
    y = rng.standard_normal((n, 1)).astype("float32")
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [keras.Input((50, 8)), getattr(keras.layers, layer)(64), keras.layers.Dense(1)]
    )
    model.compile(optimizer="adam", loss="mse")
    return lambda: model.fit(x, y, batch_size=64, epochs=1, verbose=0)


def lstm_fit(tf, n):
    """Keras LSTM(64) on sequences of 50 steps of 8 features, one epoch of ``fit``."""
    return _rnn_fit(tf, n, "LSTM")


def gru_fit(tf, n):
    """Keras GRU(64), as the LSTM."""
    return _rnn_fit(tf, n, "GRU")


def pinn(tf, steps):
    """PINN: u(x, t) by an MLP 2-32-32-1 (tanh), the residual u_t - 0.01 u_xx on 2,000
    points through nested tapes, Adam, under ``function``."""
    rng = np.random.default_rng(0)
    points = tf.constant(rng.uniform(-1, 1, (2000, 2)).astype("float32"))
    sizes = [(2, 32), (32, 32), (32, 1)]
    weights = [tf.Variable(rng.normal(0, 0.3, s).astype("float32")) for s in sizes]
    biases = [tf.Variable(np.zeros(s[1], "float32")) for s in sizes]
    optimizer = tf.keras.optimizers.Adam(1e-3)

    def u(p):
        h = p
        for k, (w, b) in enumerate(zip(weights, biases)):
            h = tf.matmul(h, w) + b
            h = tf.tanh(h) if k < len(weights) - 1 else h
        return h

    @tf.function
    def step():
        with tf.GradientTape() as outer:
            with tf.GradientTape() as second:
                second.watch(points)
                with tf.GradientTape() as first:
                    first.watch(points)
                    value = u(points)
                du = first.gradient(value, points)
                u_x = du[:, 0]
            u_xx = second.gradient(u_x, points)[:, 0]
            loss = tf.reduce_mean(tf.square(du[:, 1] - 0.01 * u_xx))
        variables = weights + biases
        optimizer.apply_gradients(zip(outer.gradient(loss, variables), variables))
        return loss

    return lambda: [step() for _ in range(steps)]


def dann(tf, steps):
    """Domain-adversarial training, eagerly: a shared extractor, a label head and a domain
    head behind a gradient-reversal layer; three custom gradients a step (the reversal, a
    straight-through clip of the features, a scaled identity on the label logits)."""
    rng = np.random.default_rng(0)
    xs = tf.constant(rng.standard_normal((128, 64)).astype("float32"))
    ys = tf.constant(rng.integers(0, 10, 128))
    domains = tf.constant(rng.integers(0, 2, (128, 1)).astype("float32"))

    def dense(n_in, n_out):
        return [
            tf.Variable(rng.normal(0, 0.1, (n_in, n_out)).astype("float32")),
            tf.Variable(np.zeros(n_out, "float32")),
        ]

    extractor, labels, domain = dense(64, 128), dense(128, 10), dense(128, 1)
    variables = extractor + labels + domain
    optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.custom_gradient
    def reverse(x):
        return tf.identity(x), lambda g: -0.3 * g

    @tf.custom_gradient
    def clip_through(x):
        return tf.clip_by_value(x, -3.0, 3.0), lambda g: g

    @tf.custom_gradient
    def scaled(x):
        return tf.identity(x), lambda g: 0.5 * g

    def step():
        with tf.GradientTape() as tape:
            features = clip_through(tf.nn.relu(tf.matmul(xs, extractor[0]) + extractor[1]))
            logits = scaled(tf.matmul(features, labels[0]) + labels[1])
            label_loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ys, logits=logits)
            )
            d = tf.matmul(reverse(features), domain[0]) + domain[1]
            domain_loss = tf.reduce_mean(
                tf.nn.sigmoid_cross_entropy_with_logits(labels=domains, logits=d)
            )
            loss = label_loss + domain_loss
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss

    return lambda: [step() for _ in range(steps)]


def session(tf, steps):
    """A TF1 graph: placeholders, an MLP 64-128-10, GradientDescentOptimizer, and a loop of
    ``Session.run`` training steps fed with NumPy batches."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    rng = np.random.default_rng(0)
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 64])
        y = v1.placeholder(tf.int64, [None])
        w1 = tf.Variable(rng.normal(0, 0.1, (64, 128)).astype("float32"))
        w2 = tf.Variable(rng.normal(0, 0.1, (128, 10)).astype("float32"))
        logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
        )
        train = v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        init = v1.global_variables_initializer()
    sess = v1.Session(graph=graph)
    sess.run(init)
    feed = {x: rng.standard_normal((128, 64)).astype("float32"), y: rng.integers(0, 10, 128)}
    return lambda: [sess.run([train, loss], feed) for _ in range(steps)]


WORKLOADS = {
    # name: (builder, which size of _sizes it takes)
    "mlp_fit": (mlp_fit, "mlp"),
    "cnn_eager": (cnn_eager, "cnn"),
    "cnn_function": (cnn_function, "cnn"),
    "lstm_fit": (lstm_fit, "rnn"),
    "gru_fit": (gru_fit, "rnn"),
    "pinn": (pinn, "pinn"),
    "dann": (dann, "dann"),
    "session": (session, "session"),
}


# --- one measurement, in the process of one framework -----------------------------------


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _import(framework: str) -> None:
    __import__({"pytorch": "torch"}.get(framework, framework))


def _limit_threads(framework: str, module) -> None:
    """One thread for the frameworks' own pools (BLAS is capped by the environment)."""
    if framework == "tensorflow":
        module.config.threading.set_intra_op_parallelism_threads(1)
        module.config.threading.set_inter_op_parallelism_threads(1)
    elif framework == "pytorch":
        module.set_num_threads(1)
        module.set_num_interop_threads(1)


def measure_one(framework: str, workload: str, quick: bool, runs: int, one_thread: bool) -> dict:
    """{seconds: [...], first: seconds of the warm-up unit, peak_mb}; None seconds when
    the framework has no form of the workload."""
    size = _sizes(quick)[WORKLOADS[workload][1]]
    _import(framework)
    base = _resident_bytes()  # (after the framework's import, before the workload's data)
    if framework in ("retrograd", "tensorflow"):
        if framework == "retrograd":
            import retrograd as module
        else:
            import tensorflow as module
        if one_thread:
            _limit_threads(framework, module)
        run = WORKLOADS[workload][0](module, size)
    else:
        from benchmarks import training_peers

        run = training_peers.build(framework, workload, size, one_thread)
        if run is None:
            return {"seconds": None}
    start = time.perf_counter()
    run()
    first = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # (Linux: kilobytes)
    return {"seconds": times, "first": first, "peak_mb": max(peak - base, 0) / 2**20}


def _interpreters(pythons: list[str]) -> dict[str, str]:
    """{framework: interpreter}: retrograd here; the others in the first interpreter that
    imports them."""
    found = {"retrograd": sys.executable}
    modules = {"tensorflow": "tensorflow", "pytorch": "torch", "jax": "jax"}
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec(sys.argv[1]) is None)"
    for python in [*pythons, sys.executable]:
        for name, module in modules.items():
            if name not in found and subprocess.run([python, "-c", probe, module]).returncode == 0:
                found[name] = python
    return found


def run_child(python: str, framework: str, workload: str, args, one_thread: bool) -> dict:
    env = dict(os.environ)
    source = str(Path(__import__("retrograd").__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([source, str(ROOT)])
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    for name in THREAD_VARIABLES:
        env.pop(name, None)
        if one_thread:
            env[name] = "1"
    if one_thread:
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    command = (
        [
            python,
            "-m",
            "benchmarks.training",
            "--child",
            framework,
            workload,
            "--runs",
            str(args.runs),
        ]
        + ["--quick"] * args.quick
        + ["--one-thread"] * one_thread
    )
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return {"seconds": None, "error": why}
    return json.loads(lines[-1])


def render(rows: list[dict], frameworks: list[str]) -> str:
    head = ["workload", "threads"] + [f"{f} (s)" for f in frameworks]
    head += [f"retrograd / {f}" for f in frameworks[1:]] + ["peak MB " + "/".join(frameworks)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        medians = {f: row[f]["median"] for f in frameworks if row.get(f, {}).get("median")}
        cells = [row["workload"], row["threads"]]
        cells += [f"{medians[f]:.3g}" if f in medians else "-" for f in frameworks]
        mine = medians.get("retrograd")
        cells += [
            f"{mine / medians[f]:.2f}x" if mine and f in medians else "-" for f in frameworks[1:]
        ]
        cells.append(
            " / ".join(f"{row[f]['peak_mb']:.0f}" if f in medians else "-" for f in frameworks)
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks it runs")
    parser.add_argument("--runs", type=int, default=3, help="timed units per cell (median)")
    parser.add_argument("--only", nargs="+", choices=sorted(WORKLOADS), metavar="NAME")
    parser.add_argument("--threads", choices=("one", "default", "both"), default="both")
    parser.add_argument(
        "--framework-python",
        action="append",
        default=[],
        metavar="PYTHON",
        help="an interpreter with TensorFlow, PyTorch or JAX (repeatable)",
    )
    parser.add_argument("--no-frameworks", action="store_true", help="retrograd alone")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--one-thread", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure_one(*args.child, args.quick, args.runs, args.one_thread)))
        return 0
    found = (
        {"retrograd": sys.executable}
        if args.no_frameworks
        else _interpreters(args.framework_python)
    )
    frameworks = [f for f in ("retrograd", "tensorflow", "pytorch", "jax") if f in found]
    settings = {"one": [True], "default": [False], "both": [True, False]}[args.threads]
    rows = []
    for workload in args.only or list(WORKLOADS):
        for one_thread in settings:
            row: dict = {"workload": workload, "threads": "1" if one_thread else "default"}
            for framework in frameworks:
                got = run_child(found[framework], framework, workload, args, one_thread)
                if got.get("seconds"):
                    got["median"] = statistics.median(got["seconds"])
                elif got.get("error"):
                    print(f"# {framework} {workload}: {got['error']}", file=sys.stderr)
                row[framework] = got
                print(f"# {workload} ({row['threads']}): {framework} done", file=sys.stderr)
            rows.append(row)
    print(render(rows, frameworks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
