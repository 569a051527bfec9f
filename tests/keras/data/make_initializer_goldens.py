"""Makes initializer_goldens.json: the values of Keras 3's seeded initializers (on the
TensorFlow backend) and the weights of small models built after
keras.utils.set_random_seed, computed by real TensorFlow 2.21 / Keras 3.15.

Run with TensorFlow's interpreter (never a dependency of retrograd):
    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/keras/data/make_initializer_goldens.py
The cases are listed here and stored with the values; the tests read both from the JSON.
The model builders are shared with the tests as source text (MODELS), run by both.
"""

import json
import pathlib

import tensorflow as tf

HERE = pathlib.Path(__file__).parent

INITIALIZERS = [
    ("GlorotUniform", {}),
    ("GlorotNormal", {}),
    ("HeNormal", {}),
    ("HeUniform", {}),
    ("LecunNormal", {}),
    ("LecunUniform", {}),
    ("RandomNormal", {"mean": 0.5, "stddev": 0.2}),
    ("RandomUniform", {"minval": -0.3, "maxval": 0.7}),
    ("TruncatedNormal", {"mean": -0.1, "stddev": 0.3}),
    ("VarianceScaling", {"scale": 2.5, "mode": "fan_out", "distribution": "untruncated_normal"}),
    ("VarianceScaling", {"scale": 0.5, "mode": "fan_avg", "distribution": "uniform"}),
    ("Orthogonal", {"gain": 1.5}),
]
SHAPES = [[4, 3], [3, 3, 2, 5], [7]]
SEEDS = [1, 1337, 2**40 + 5]

# Models built right after keras.utils.set_random_seed(seed): their weights come from
# unseeded initializers, whose seeds Keras takes from Python's random module.
MODELS = {
    "dense_stack": """keras.Sequential([
    keras.Input((5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(4, kernel_initializer="he_normal", bias_initializer="random_normal"),
    keras.layers.Dense(2, kernel_initializer="lecun_normal"),
])""",
    "conv_embedding": """keras.Sequential([
    keras.Input((6,), dtype="int32"),
    keras.layers.Embedding(10, 4),
    keras.layers.Conv1D(3, 2, kernel_initializer="glorot_normal"),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(2, kernel_initializer="truncated_normal"),
])""",
    "lstm": """keras.Sequential([
    keras.Input((3, 2)),
    keras.layers.LSTM(4),
    keras.layers.Dense(1),
])""",
    "functional": """keras.Model(*(lambda i: (i, keras.layers.Dense(3)(
    keras.layers.Concatenate()([keras.layers.Dense(2)(i), keras.layers.Dense(2)(i)]))))(
    keras.Input((3,))))""",
}


def initializer_cases():
    out = []
    for name, kwargs in INITIALIZERS:
        for shape in SHAPES:
            if name == "Orthogonal" and len(shape) < 2:
                continue
            for seed in SEEDS:
                for dtype in ("float32", "float64") if seed == 1 else ("float32",):
                    init = getattr(tf.keras.initializers, name)(seed=seed, **kwargs)
                    values = init(shape, dtype=dtype).numpy().reshape(-1).tolist()
                    out.append(
                        {
                            "name": name,
                            "kwargs": kwargs,
                            "shape": shape,
                            "seed": seed,
                            "dtype": dtype,
                            "values": values,
                        }
                    )
    return out


def model_cases():
    out = []
    for label, source in MODELS.items():
        for seed in (0, 123):
            tf.keras.utils.set_random_seed(seed)
            model = eval(source, {"keras": tf.keras})
            weights = [w.numpy().reshape(-1).tolist() for w in model.weights]
            shapes = [list(w.shape) for w in model.weights]
            out.append({"model": label, "seed": seed, "shapes": shapes, "weights": weights})
    return out


if __name__ == "__main__":
    golden = {"models": MODELS, "initializers": initializer_cases(), "built": model_cases()}
    (HERE / "initializer_goldens.json").write_text(json.dumps(golden) + "\n")
    print(len(golden["initializers"]), "initializer cases,", len(golden["built"]), "models")
