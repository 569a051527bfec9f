"""Luong (dot, scaled) and Bahdanau attention over padded sequences: the masks of
Embedding(mask_zero=True) reach Attention and AdditiveAttention through the functional
graph; the model is trained with Model.fit."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(8)
queries = rng.integers(1, 7, size=(12, 4)).astype("int32")
values = rng.integers(1, 7, size=(12, 6)).astype("int32")
values[::2, 4:] = 0
queries[1::3, 3:] = 0
target = (queries[:, :1] > values[:, :1]).astype("float32")

q_in = keras.Input((4,), dtype="int32")
v_in = keras.Input((6,), dtype="int32")
embed = keras.layers.Embedding(8, 4, mask_zero=True)
q, v = embed(q_in), embed(v_in)
dot = keras.layers.Attention(use_scale=True)([q, v])
additive = keras.layers.AdditiveAttention()([q, v])
pooled = keras.layers.GlobalAveragePooling1D()(keras.layers.Concatenate()([dot, additive]))
outputs = keras.layers.Dense(1, activation="sigmoid")(pooled)
model = keras.Model([q_in, v_in], outputs)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([w.path for w in model.weights])
model.compile(keras.optimizers.Adam(0.02), "binary_crossentropy", metrics=["accuracy"])
history = model.fit([queries, values], target, batch_size=4, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
print(np.round(model.predict([queries[:3], values[:3]], verbose=0).ravel(), 5).tolist())
