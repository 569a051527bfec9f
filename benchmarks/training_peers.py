"""Hand-written PyTorch and JAX loops of the training workloads in ``training`` (the same
models, sizes, batch sizes and optimizers), for comparison columns. ``build`` returns
``run()`` (one timed unit) or None where a framework has no form of a workload.
"""

from __future__ import annotations

import numpy as np


def build(framework: str, workload: str, size: int, one_thread: bool):
    table = _torch(one_thread) if framework == "pytorch" else _jax()
    builder = table.get(workload)
    return None if builder is None else builder(size)


def _torch(one_thread: bool) -> dict:
    import torch
    from torch import nn

    if one_thread:
        torch.set_num_threads(1)
    torch.manual_seed(0)

    def loop(model, loss_fn, batches, optimizer=None):
        optimizer = optimizer or torch.optim.Adam(model.parameters(), 1e-3)

        def run():
            for xb, yb in batches():
                optimizer.zero_grad()
                loss = loss_fn(model(xb), yb)
                loss.backward()
                optimizer.step()

        return run

    def epochs(x, y, batch, shuffle):
        x, y = torch.tensor(x), torch.tensor(y)

        def batches():
            order = torch.randperm(len(x)) if shuffle else torch.arange(len(x))
            for start in range(0, len(x), batch):
                index = order[start : start + batch]
                yield x[index], y[index]

        return batches

    def mlp_fit(n):
        rng = np.random.default_rng(0)
        x, y = rng.standard_normal((n, 784)).astype("float32"), rng.integers(0, 10, n)
        model = nn.Sequential(
            nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)
        )
        return loop(model, nn.CrossEntropyLoss(), epochs(x, y, 128, True))

    def cnn_eager(steps):
        rng = np.random.default_rng(0)
        x = torch.tensor(rng.standard_normal((64, 1, 28, 28)).astype("float32"))
        y = torch.tensor(rng.integers(0, 10, 64))
        model = nn.Sequential(
            nn.Conv2d(1, 32, 3),
            nn.ReLU(),
            nn.Conv2d(32, 64, 3),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(64 * 12 * 12, 10),
        )
        return loop(model, nn.CrossEntropyLoss(), lambda: [(x, y)] * steps)

    class Last(nn.Module):
        def __init__(self, cell):
            super().__init__()
            self.rnn, self.head = cell(8, 64, batch_first=True), nn.Linear(64, 1)

        def forward(self, x):
            return self.head(self.rnn(x)[0][:, -1])

    def rnn_fit(cell):
        def make(n):
            rng = np.random.default_rng(0)
            x = rng.standard_normal((n, 50, 8)).astype("float32")
            y = rng.standard_normal((n, 1)).astype("float32")
            return loop(Last(cell), nn.MSELoss(), epochs(x, y, 64, True))

        return make

    def pinn(steps):
        rng = np.random.default_rng(0)
        points = torch.tensor(rng.uniform(-1, 1, (2000, 2)).astype("float32"), requires_grad=True)
        model = nn.Sequential(
            nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)
        )
        optimizer = torch.optim.Adam(model.parameters(), 1e-3)

        def run():
            for _ in range(steps):
                optimizer.zero_grad()
                (du,) = torch.autograd.grad(model(points).sum(), points, create_graph=True)
                (dxx,) = torch.autograd.grad(du[:, 0].sum(), points, create_graph=True)
                loss = ((du[:, 1] - 0.01 * dxx[:, 0]) ** 2).mean()
                loss.backward()
                optimizer.step()

        return run

    class Reverse(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.scale = scale
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return ctx.scale * g, None

    class ClipThrough(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clamp(-3.0, 3.0)

        @staticmethod
        def backward(ctx, g):
            return g

    def dann(steps):
        rng = np.random.default_rng(0)
        xs = torch.tensor(rng.standard_normal((128, 64)).astype("float32"))
        ys = torch.tensor(rng.integers(0, 10, 128))
        domains = torch.tensor(rng.integers(0, 2, (128, 1)).astype("float32"))
        extractor, labels, domain = nn.Linear(64, 128), nn.Linear(128, 10), nn.Linear(128, 1)
        params = [*extractor.parameters(), *labels.parameters(), *domain.parameters()]
        optimizer = torch.optim.SGD(params, 0.01)
        ce, bce = nn.CrossEntropyLoss(), nn.BCEWithLogitsLoss()

        def run():
            for _ in range(steps):
                optimizer.zero_grad()
                features = ClipThrough.apply(torch.relu(extractor(xs)))
                logits = Reverse.apply(labels(features), 0.5)
                d = domain(Reverse.apply(features, -0.3))
                (ce(logits, ys) + bce(d, domains)).backward()
                optimizer.step()

        return run

    return {
        "mlp_fit": mlp_fit,
        "cnn_eager": cnn_eager,
        "lstm_fit": rnn_fit(nn.LSTM),
        "gru_fit": rnn_fit(nn.GRU),
        "pinn": pinn,
        "dann": dann,
    }


def _jax() -> dict:
    import jax
    import jax.numpy as jnp

    def adam(params):
        state = [(jnp.zeros_like(p), jnp.zeros_like(p)) for p in params]
        return state

    def adam_update(params, grads, state, t, lr=1e-3):
        new_params, new_state = [], []
        for p, g, (m, v) in zip(params, grads, state):
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            alpha = lr * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
            new_params.append(p - alpha * m / (jnp.sqrt(v) + 1e-7))
            new_state.append((m, v))
        return new_params, new_state

    def dense_init(rng, sizes):
        params = []
        for a, b in sizes:
            params += [
                jnp.asarray(rng.normal(0, (2 / a) ** 0.5, (a, b)).astype("float32")),
                jnp.zeros(b, "float32"),
            ]
        return params

    def mlp_fit(n):
        rng = np.random.default_rng(0)
        x, y = rng.standard_normal((n, 784)).astype("float32"), rng.integers(0, 10, n)
        params = dense_init(rng, [(784, 256), (256, 256), (256, 10)])

        def loss(params, xb, yb):
            h = xb
            for k in range(0, len(params), 2):
                h = h @ params[k] + params[k + 1]
                h = jax.nn.relu(h) if k < len(params) - 2 else h
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(h), yb[:, None], 1))

        @jax.jit
        def step(params, state, t, xb, yb):
            grads = jax.grad(loss)(params, xb, yb)
            return adam_update(params, grads, state, t)

        box = {"params": params, "state": adam(params), "t": 0}

        def run():
            order = rng.permutation(n)
            for start in range(0, n, 128):
                index = order[start : start + 128]
                box["t"] += 1
                box["params"], box["state"] = step(
                    box["params"], box["state"], box["t"], x[index], y[index]
                )
            jax.block_until_ready(box["params"])

        return run

    def pinn(steps):
        rng = np.random.default_rng(0)
        points = jnp.asarray(rng.uniform(-1, 1, (2000, 2)).astype("float32"))
        params = dense_init(rng, [(2, 32), (32, 32), (32, 1)])

        def u(params, p):
            h = p
            for k in range(0, len(params), 2):
                h = h @ params[k] + params[k + 1]
                h = jnp.tanh(h) if k < len(params) - 2 else h
            return h[0]

        def loss(params):
            du = jax.vmap(jax.grad(u, 1), (None, 0))(params, points)
            dxx = jax.vmap(jax.grad(lambda p, q: jax.grad(u, 1)(p, q)[0], 1), (None, 0))(
                params, points
            )
            return jnp.mean((du[:, 1] - 0.01 * dxx[:, 0]) ** 2)

        @jax.jit
        def step(params, state, t):
            return adam_update(params, jax.grad(loss)(params), state, t)

        box = {"params": params, "state": adam(params), "t": 0}

        def run():
            for _ in range(steps):
                box["t"] += 1
                box["params"], box["state"] = step(box["params"], box["state"], box["t"])
            jax.block_until_ready(box["params"])

        return run

    return {"mlp_fit": mlp_fit, "pinn": pinn}
