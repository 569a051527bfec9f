"""Makes stateless_random_goldens.json: TensorFlow's stateless random ops
(tf.random.stateless_uniform / stateless_normal / stateless_truncated_normal) for a table of
seeds, shapes, dtypes and parameters, computed by real TensorFlow 2.21 on a CPU.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/ops/data/make_stateless_random_goldens.py
The cases are listed here and stored with the values; the test reads both from the JSON.
"""

import json
import pathlib

import tensorflow as tf

HERE = pathlib.Path(__file__).parent

SEEDS = [[1, 2], [0, 0], [-5, 123456789], [2147483647, -2147483648], [42, 0]]
CASES = []
for kind in ("uniform", "normal", "truncated_normal"):
    for dtype in ("float16", "float32", "float64"):
        for i, seed in enumerate(SEEDS):
            shape = [[3, 7], [1000], [2, 3, 5], [1], [0, 4]][i]
            CASES.append({"kind": kind, "dtype": dtype, "seed": seed, "shape": shape})
# parameters applied after the draw, seeds given as int64 tensors, odd sizes
CASES += [
    {
        "kind": "uniform",
        "dtype": "float32",
        "seed": [7, 8],
        "shape": [5, 5],
        "args": {"minval": -2.5, "maxval": 4.0},
    },
    {
        "kind": "uniform",
        "dtype": "float64",
        "seed": [7, 8],
        "shape": [9],
        "args": {"minval": 1.0, "maxval": 1.5},
    },
    {
        "kind": "normal",
        "dtype": "float32",
        "seed": [3, 1],
        "shape": [4, 3],
        "args": {"mean": 1.5, "stddev": 0.25},
    },
    {
        "kind": "truncated_normal",
        "dtype": "float32",
        "seed": [3, 1],
        "shape": [17],
        "args": {"mean": -1.0, "stddev": 3.0},
    },
    {
        "kind": "truncated_normal",
        "dtype": "float64",
        "seed": [9, 9],
        "shape": [2, 301],
        "seed_dtype": "int64",
    },
    {
        "kind": "uniform",
        "dtype": "int32",
        "seed": [5, 6],
        "shape": [11],
        "args": {"minval": -7, "maxval": 1000003},
    },
    {
        "kind": "uniform",
        "dtype": "int64",
        "seed": [5, 6],
        "shape": [3, 3],
        "args": {"minval": -(2**40), "maxval": 2**41 + 3},
    },
    {
        "kind": "uniform",
        "dtype": "int32",
        "seed": [1, 2],
        "shape": [7],
        "args": {"minval": None, "maxval": None},
    },
    {
        "kind": "uniform",
        "dtype": "int64",
        "seed": [3, 4],
        "shape": [2, 3],
        "args": {"minval": None, "maxval": None},
    },
    {
        "kind": "uniform",
        "dtype": "int32",
        "seed": [2**33, -1],
        "shape": [6],
        "args": {"minval": 0, "maxval": 2},
        "seed_dtype": "int64",
    },
]


def run(case):
    fn = getattr(tf.random, "stateless_" + case["kind"])
    seed = tf.constant(case["seed"], dtype=case.get("seed_dtype", "int32"))
    out = fn(case["shape"], seed=seed, dtype=case["dtype"], **case.get("args", {}))
    return out.numpy().reshape(-1).tolist()


if __name__ == "__main__":
    golden = [{**case, "values": run(case)} for case in CASES]
    (HERE / "stateless_random_goldens.json").write_text(json.dumps(golden) + "\n")
    print(f"{len(golden)} cases written")
