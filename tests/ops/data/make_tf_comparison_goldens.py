"""Makes tf_comparison_{math,nn,linalg,array_reduce}.npz: TensorFlow 2.21's values,
gradients and second derivatives for the cases of tf_comparison_*.py, which the tests
tests/ops/test_against_tensorflow_*.py compare retrograd with (the same code, run with
``lib = retrograd``). Arrays only, in npz files (no pickle).

Run with TensorFlow's interpreter (never a dependency of retrograd):

    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= /work/tfenv/bin/python \\
        tests/ops/data/make_tf_comparison_goldens.py [math nn linalg array_reduce]
"""

from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import tf_comparison as comparison  # noqa: E402


def math_goldens() -> dict:
    import tf_comparison_math as cases

    out = {}
    for pair in cases.pairs(tf):
        arrays = pair.arrays()
        wide = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64) for a in arrays]
        out[f"{pair.name}/float64"] = comparison.differentiate(
            tf, pair.fn, wide, pair.order, pair.name
        )
        narrow = [a.astype(np.complex64 if np.iscomplexobj(a) else np.float32) for a in arrays]
        out[f"{pair.name}/float32"] = comparison.differentiate(tf, pair.fn, narrow, 0, pair.name)
    for name, (fn, values) in cases.special_values(tf).items():
        out[f"special/{name}"] = comparison.values_only(fn(tf.constant(values)))
    for op in cases.ROUNDING:
        out[f"no_gradient/{op}"] = comparison.values_only(cases.no_gradient(tf, op))
    return out


def nn_goldens() -> dict:
    import tf_comparison_nn as cases

    out = {}
    for name, case in cases.CASES.items():
        fn = (case.reference or case.fn)(tf)
        out[name] = comparison.differentiate(tf, fn, case.arrays(), case.order, name)
    out["random/moments"] = comparison.values_only(cases.moments(tf))
    out["random/seeding"] = comparison.values_only(cases.seeding(tf))
    out["random/generators"] = comparison.values_only(cases.generators(tf))
    tf.random.set_seed(None)
    return out


def linalg_goldens() -> dict:
    import tf_comparison_linalg as cases

    out = {}

    def record(key, f, x):
        weights = cases.weights_for(tf.nest.flatten(f(tf, tf.constant(x))))
        values, grad = cases.values_and_gradient(tf, f, x, weights)
        out[key] = {"values": values, "grads": [grad], "second": []}

    for name, (f, _) in cases.ROWS.items():
        record(f"real/{name}", f, cases.real_input(name))
    for name in cases.COMPLEX:
        record(f"complex/{name}", cases.ROWS[name][0], cases.complex_input(name))
    for name, x in cases.DEGENERATE.items():
        record(f"degenerate/{name}", cases.ROWS[name][0], x)
    a = cases.complex_matrix()
    det = lambda lib, x: lib.linalg.det(x)  # noqa: E731
    slogdet = lambda lib, x: lib.linalg.slogdet(x)  # noqa: E731
    for key, f, weights in [
        ("det/complex", det, [np.array(1.0 + 0j)]),
        ("slogdet/no_phase", slogdet, [np.array(0j), np.array(0.7 + 0j)]),
        ("slogdet/phase", slogdet, [np.array(0.3 - 0.4j), np.array(0.7 + 0j)]),
    ]:
        values, grad = cases.values_and_gradient(tf, f, a, weights)
        out[key] = {"values": values, "grads": [grad], "second": []}
    for k, matrix in enumerate(cases.ZERO_PIVOTS):
        solved = tf.linalg.triangular_solve(matrix, np.ones((3, 2)))
        out[f"zero_pivot/{k}"] = comparison.values_only(solved)
    return out


def array_reduce_goldens() -> dict:
    import tf_comparison_array_reduce as cases

    out = {}
    for name, program, shapes, second_order in cases.PROGRAMS:
        arrays = cases.arrays(name, shapes)
        order = 2 if second_order else 1
        out[name] = comparison.differentiate(
            tf, lambda *xs, p=program: p(tf, *xs), arrays, order, name
        )
    out["moments/second_derivative"] = comparison.values_only(cases.moments_second_derivative(tf))
    for name, program in cases.INTEGER_PROGRAMS.items():
        out[f"integer/{name}"] = comparison.values_only(program(tf))
    return out


FAMILIES = {
    "math": math_goldens,
    "nn": nn_goldens,
    "linalg": linalg_goldens,
    "array_reduce": array_reduce_goldens,
}


def main(names: list[str]) -> None:
    for family in names or list(FAMILIES):
        results = FAMILIES[family]()
        path = HERE / f"tf_comparison_{family}.npz"
        np.savez_compressed(path, **comparison.pack(results))
        print(f"{path.name}: {len(results)} cases, {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
