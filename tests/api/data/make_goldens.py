"""Runs every case of the cases_*.py files beside this script on real TensorFlow 2.21 and
keeps what it gives as <module>_goldens.json, which tests/api/test_against_goldens.py
compares retrograd with. Each case is a few lines of code run with ``tf`` (and ``np``)
bound, which leave their result in ``result`` (an exception is kept as its type's name).

Run with TensorFlow's interpreter (never a dependency of retrograd):

    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= /work/tfenv/bin/python \\
        tests/api/data/make_goldens.py [cases_module ...]
"""

from __future__ import annotations

import importlib
import json
import linecache
import os
import pathlib
import sys
import textwrap

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
from golden_format import encode  # noqa: E402


def run_case(code: str, where: str):
    namespace = {"tf": tf, "np": np}
    source = textwrap.dedent(code)
    # The source is where AutoGraph (and inspect) look for it, as for a file.
    linecache.cache[where] = (len(source), None, source.splitlines(True), where)
    try:
        exec(compile(source, where, "exec"), namespace)
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)[:300]}
    finally:
        if not tf.executing_eagerly():
            tf.compat.v1.enable_eager_execution()
    if "result" not in namespace:
        raise KeyError(f"{where} leaves no `result`")
    return encode(namespace["result"])


def main(names: list[str]) -> None:
    modules = names or sorted(p.stem for p in HERE.glob("cases_*.py"))
    for name in modules:
        cases = importlib.import_module(name).CASES
        goldens = {case: run_case(code, f"{name}.{case}") for case, code in cases.items()}
        out = HERE / f"{name}_goldens.json"
        out.write_text(json.dumps(goldens, indent=0, sort_keys=True) + "\n")
        errors = sum("error" in g for g in goldens.values())
        print(f"{out.name}: {len(goldens)} cases ({errors} raise in TensorFlow)")


if __name__ == "__main__":
    main([n.removesuffix(".py") for n in sys.argv[1:]])
