"""Makes shuffle_goldens.json: what TensorFlow 2.21 (Keras 3, TensorFlow backend) prints for
the programs of shuffle_cases.py, and the index order of Keras' array adapter (``fit``'s
shuffle) over three passes, for several sizes and seeds, shuffled fully and by batch.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= \
        /work/tfenv/bin/python tests/ops/data/make_shuffle_goldens.py
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow as tf
from keras.src.trainers.data_adapters.array_data_adapter import ArrayDataAdapter

import keras

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import shuffle_cases  # noqa: E402


def adapter_orders(n, seed, shuffle):
    tf.random.set_seed(seed)  # (keras.utils.set_random_seed sets it, and NumPy's)
    x = np.arange(n, dtype="float32").reshape(n, 1)
    dataset = ArrayDataAdapter(
        x, x, batch_size=shuffle_cases.ADAPTER_BATCH, shuffle=shuffle
    ).get_tf_dataset()
    return [
        np.concatenate([batch[0].numpy().ravel() for batch in dataset]).astype(int).tolist()
        for _ in range(3)
    ]


def main():
    out = {"tensorflow": tf.__version__, "keras": keras.__version__, "cases": {}}
    for name, source in shuffle_cases.CASES.items():
        scope = {"tf": tf, "np": np, "SIZES": shuffle_cases.SIZES}
        exec(source, scope)
        out["cases"][name] = scope["result"]
    out["adapter"] = [
        {"n": n, "seed": seed, "shuffle": shuffle, "orders": adapter_orders(n, seed, shuffle)}
        for n in shuffle_cases.ADAPTER_SIZES
        for seed in shuffle_cases.ADAPTER_SEEDS
        for shuffle in (True, "batch")
    ]
    (HERE / "shuffle_goldens.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
