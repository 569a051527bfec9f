"""Makes edge_gradients.json with real TensorFlow (run from the repository root):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf/python \\
        tests/autodiff/data/make_edge_goldens.py

The cases are tests/autodiff/edge_cases.py, shared with the test that compares retrograd.
"""

import json
import math
import pathlib
import sys

import tensorflow as tf

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.autodiff.edge_cases import CASES, gradients  # noqa: E402


def _jsonable(value):
    """NaN and infinities as strings (JSON has no such numbers)."""
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


goldens = {name: _jsonable(gradients(tf, name)) for name in CASES}
out = pathlib.Path(__file__).with_name("edge_gradients.json")
lines = [f"  {json.dumps(name)}: {json.dumps(value)}" for name, value in goldens.items()]
out.write_text(
    f'{{\n "tensorflow": {json.dumps(tf.__version__)},\n "cases": {{\n'
    + ",\n".join(lines)
    + "\n }\n}\n"
)
print(f"wrote {len(goldens)} cases to {out}")
