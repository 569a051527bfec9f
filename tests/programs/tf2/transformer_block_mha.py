"""A small Transformer encoder block (MultiHeadAttention with a causal mask, residuals,
LayerNormalization, a feed-forward EinsumDense) classifying sequences with Model.fit."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(2)
x = rng.normal(size=(24, 5, 8)).astype("float32")
y = (x[:, :, 0].sum(axis=1) > 0).astype("float32").reshape(-1, 1)

inputs = keras.Input((5, 8))
attended = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")(
    inputs, inputs, use_causal_mask=True
)
h = keras.layers.LayerNormalization(name="ln1")(inputs + attended)
ff = keras.layers.EinsumDense(
    "btd,df->btf", output_shape=(None, 16), bias_axes="f", activation="relu", name="ff1"
)(h)
ff = keras.layers.EinsumDense("btf,fd->btd", output_shape=(None, 8), name="ff2")(ff)
h = keras.layers.LayerNormalization(name="ln2")(h + ff)
pooled = keras.layers.GlobalAveragePooling1D()(h)
outputs = keras.layers.Dense(1, activation="sigmoid")(pooled)
model = keras.Model(inputs, outputs)
model.set_weights(
    [rng.normal(scale=0.3, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([w.path for w in model.weights][:4])
model.compile(keras.optimizers.Adam(0.01), "binary_crossentropy", metrics=["accuracy"])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
out, scores = model.get_layer("mha")(
    x[:1], x[:1], return_attention_scores=True, use_causal_mask=True
)
print(np.round(scores.numpy()[0, 0], 4).tolist())
