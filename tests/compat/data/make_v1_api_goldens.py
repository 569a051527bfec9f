"""Makes v1_api_goldens.json: what real TensorFlow gives for each snippet of
v1_api_cases (its ``result`` as plain JSON data, or the error's type). Run with the
TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 TF1_LEGACY_KERAS=/path/to/tf_keras_2.21 \\
        /work/tfenv/bin/python tests/compat/data/make_v1_api_goldens.py

With Keras 3, TensorFlow 2.21's ``tf.compat.v1.layers`` has no layers ("not available with
Keras 3"): TensorFlow routes it to tf_keras' legacy layers when TF_USE_LEGACY_KERAS is set.
The LAYERS snippets therefore run in a second process with TF_USE_LEGACY_KERAS=1 and
tf_keras 2.21 on the path (``pip install --target DIR tf-keras==2.21.0``; DIR in
TF1_LEGACY_KERAS).
"""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import tensorflow as tf2

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from v1_api_cases import EAGER, GRAPH, LAYERS  # noqa: E402


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


def legacy_layers_goldens() -> dict:
    """The LAYERS snippets, run by TensorFlow with tf_keras' legacy layers."""
    folder = os.environ.get("TF1_LEGACY_KERAS")
    if not folder:
        raise SystemExit("set TF1_LEGACY_KERAS to a folder holding tf_keras 2.21")
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", PYTHONPATH=folder)
    command = [sys.executable, __file__, "--layers"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1:] == ["--layers"]:
        print(json.dumps({name: outcome(code, True) for name, code in LAYERS.items()}))
        return
    goldens = {name: outcome(code, False) for name, code in EAGER.items()}
    goldens.update({name: outcome(code, True) for name, code in GRAPH.items()})
    goldens.update(legacy_layers_goldens())
    (HERE / "v1_api_goldens.json").write_text(json.dumps(goldens, indent=1) + "\n")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
