"""Makes fit_shuffle_goldens.json: the loss histories of the ``fit`` calls of
fit_shuffle_cases.py (the default ``shuffle=True``, ``shuffle="batch"``, validation_split,
steps_per_epoch, class and sample weights) on Keras 3 with TensorFlow 2.21.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= \
        /work/tfenv/bin/python tests/keras/data/make_fit_shuffle_goldens.py
"""

import json
import pathlib
import sys
import warnings

import numpy as np
import tensorflow as tf

import keras

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import fit_shuffle_cases  # noqa: E402


def run(name, seed, n):
    scope = {"tf": tf, "keras": keras, "np": np, "SEED": seed, "N": n}
    exec(fit_shuffle_cases.SETUP, scope)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (steps_per_epoch: "Your input ran out of data")
        exec(fit_shuffle_cases.CASES[name], scope)
    return scope["result"]


def main():
    out = {"tensorflow": tf.__version__, "keras": keras.__version__, "runs": []}
    for name, seed, n in fit_shuffle_cases.RUNS:
        out["runs"].append({"case": name, "seed": seed, "n": n, "result": run(name, seed, n)})
    (HERE / "fit_shuffle_goldens.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
