"""Speed of 100-element Jacobians: vectorised ``GradientTape.jacobian`` (one backward pass
with the 100 unit seeds stacked on a leading axis) against its fallback (one backward pass
per element, ``experimental_use_pfor=False``), with hand-written NumPy for scale; and
forward against reverse mode for a tall Jacobian (few inputs, many outputs).

    OMP_NUM_THREADS=1 python benchmarks/jacobian_speed.py [--size 100] [--repeats 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import retrograd as rg
from retrograd.autodiff import functional as F


def best_time(fn, repeats: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def elementwise(x):
    return rg.sin(x) * rg.exp(x) + x * x


def elementwise_numpy(xs):
    return np.diag(np.cos(xs) * np.exp(xs) + np.sin(xs) * np.exp(xs) + 2 * xs)


def dense(w, b):
    def layer(x):
        return rg.tanh(rg.matmul(w, x) + b)

    return layer


def dense_numpy(ws, bs, xs):
    y = np.tanh(ws @ xs + bs)
    return ((1 - y * y) * ws)[:, None, :, None]


def tape_jacobian(f, x, vectorise: bool):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.jacobian(y, x, experimental_use_pfor=vectorise)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    n, repeats = args.size, args.repeats
    rng = np.random.default_rng(0)
    xs, ws, bs = rng.standard_normal(n), rng.standard_normal((n, n)), rng.standard_normal((n, 1))
    cases = {
        "elementwise sin(x) exp(x) + x^2, x[n]": (
            elementwise,
            rg.constant(xs),
            lambda: elementwise_numpy(xs),
        ),
        "dense tanh(W x + b), x[n, 1]": (
            dense(rg.constant(ws), rg.constant(bs)),
            rg.constant(xs[:, None]),
            lambda: dense_numpy(ws, bs, xs[:, None]),
        ),
    }
    ratios = {}
    print(f"{n}x{n} Jacobians, best of {repeats} (ms)")
    for name, (f, x, reference) in cases.items():
        fast = tape_jacobian(f, x, True).numpy()
        np.testing.assert_allclose(fast, tape_jacobian(f, x, False).numpy(), rtol=1e-12)
        np.testing.assert_allclose(fast, reference().reshape(fast.shape), rtol=1e-10)
        t_vec = best_time(lambda f=f, x=x: tape_jacobian(f, x, True), repeats)
        t_loop = best_time(lambda f=f, x=x: tape_jacobian(f, x, False), repeats)
        t_np = best_time(reference, repeats)
        ratios[name] = t_loop / t_vec
        print(
            f"  {name:40s} vectorised {t_vec * 1e3:7.2f}  per-element {t_loop * 1e3:7.2f}  "
            f"speedup {t_loop / t_vec:5.1f}x  (NumPy closed form {t_np * 1e3:.3f}; "
            f"vectorised / NumPy {t_vec / t_np:.0f}x)"
        )

    # Tall: 4 inputs, n outputs, through a reshape (not batchable: reverse mode loops).
    v = rg.constant(rng.standard_normal(4))
    basis = rg.constant(rng.standard_normal((n, 4)))

    def tall(v):
        return rg.reshape(rg.sin(rg.matmul(basis, rg.reshape(v, [4, 1]))), [n])

    np.testing.assert_allclose(F.jacfwd(tall)(v).numpy(), F.jacrev(tall)(v).numpy(), rtol=1e-12)
    t_fwd = best_time(lambda: F.jacfwd(tall)(v), repeats)
    t_rev = best_time(lambda: F.jacrev(tall)(v), repeats)
    ratios["tall jacfwd vs jacrev"] = t_rev / t_fwd
    print(
        f"  tall [{n}] <- [4] through a reshape:     jacfwd {t_fwd * 1e3:7.2f}  "
        f"jacrev {t_rev * 1e3:7.2f}  forward mode {t_rev / t_fwd:5.1f}x faster"
    )
    return ratios


if __name__ == "__main__":
    main()
