"""Makes v1_api_goldens.json: what real TensorFlow gives for each snippet of
v1_api_cases (its ``result`` as plain JSON data, or the error's type). Run with the
TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/compat/data/make_v1_api_goldens.py
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow as tf2

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from v1_api_cases import EAGER, GRAPH  # noqa: E402


def plain(value):
    """``value`` as JSON data: arrays and tensors as (nested) lists of numbers."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    return value


def outcome(snippet: str, graph: bool) -> list:
    scope = {"tf": tf2.compat.v1, "np": np}
    try:
        if graph:
            with tf2.Graph().as_default():
                exec(snippet, scope)
        else:
            exec(snippet, scope)
    except Exception as error:  # the error's type is the golden
        return ["error", type(error).__name__]
    return ["value", plain(scope.get("result"))]


def main() -> None:
    goldens = {name: outcome(code, False) for name, code in EAGER.items()}
    goldens.update({name: outcome(code, True) for name, code in GRAPH.items()})
    (HERE / "v1_api_goldens.json").write_text(json.dumps(goldens, indent=1) + "\n")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
