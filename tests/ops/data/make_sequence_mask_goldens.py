"""Writes sequence_mask_goldens.json from real TensorFlow (run with a TensorFlow venv:
``python tests/ops/data/make_sequence_mask_goldens.py``; never imported by the tests)."""

import json
import pathlib

import tensorflow as tf
from sequence_mask_cases import CASES  # noqa: E402  (beside this script)

goldens = []
for lengths, maxlen, dtype in CASES:
    mask = tf.sequence_mask(lengths, maxlen, dtype=getattr(tf, dtype))
    goldens.append(mask.numpy().tolist())
path = pathlib.Path(__file__).with_name("sequence_mask_goldens.json")
path.write_text(json.dumps({"cases": CASES, "goldens": goldens}) + "\n")
