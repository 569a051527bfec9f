"""A binary classifier compiled with AUC, Precision, Recall, F1Score and
BinaryCrossentropy metrics, evaluated with return_dict, plus streaming metric objects."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(9)
x = rng.normal(size=(40, 3)).astype("float32")
y = (x[:, 0] + 0.5 * x[:, 1] > 0.2).astype("float32").reshape(-1, 1)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
model.set_weights([np.array([[0.8], [0.1], [-0.3]], "float32"), np.array([0.1], "float32")])
model.compile(
    keras.optimizers.SGD(0.2),
    "binary_crossentropy",
    metrics=[
        keras.metrics.AUC(name="auc"),
        keras.metrics.AUC(curve="PR", name="pr_auc"),
        keras.metrics.Precision(thresholds=0.4),
        keras.metrics.Recall(),
        keras.metrics.F1Score(threshold=0.5),
        keras.metrics.BinaryAccuracy(),
    ],
)
history = model.fit(x, y, batch_size=10, epochs=2, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{np.ravel(v)[0]:.5f}" for v in history.history[name]))
results = model.evaluate(x, y, verbose=0, return_dict=True)
print({k: round(float(np.ravel(v)[0]), 5) for k, v in sorted(results.items())})
m = keras.metrics.PrecisionAtRecall(0.5)
m.update_state(y, model.predict(x, verbose=0))
print(round(float(m.result()), 5))
iou = keras.metrics.MeanIoU(num_classes=2)
iou.update_state([0, 1, 1, 0], [0, 1, 0, 0])
print(round(float(iou.result()), 5))
