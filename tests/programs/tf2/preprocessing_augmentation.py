"""Preprocessing and augmentation layers as an input pipeline uses them: Rescaling,
Normalization and Discretization adapted to data, CategoryEncoding, Resizing, CenterCrop, a
Pipeline, and the random layers (flip, crop, rotation, translation, zoom, contrast,
brightness) drawing from their seeds while training and passing images at inference."""

import numpy as np
import tensorflow as tf

keras = tf.keras
L = keras.layers
rng = np.random.default_rng(0)
img = rng.uniform(0, 255, size=(2, 6, 7, 3)).astype("float32")


def show(name, y):
    y = np.asarray(y, dtype="float64")
    print(name, np.round(y, 3).ravel()[:12].tolist(), y.shape, round(float(y.sum()), 2))


show("rescale", L.Rescaling(1 / 127.5, offset=-1)(img))
n = L.Normalization()
n.adapt(img.reshape(-1, 3))
show("norm", n(img[0]))
n = L.Normalization(axis=None)
n.adapt([img[0], img[1]])
show("norm2", n(img[0]))
show("normi", L.Normalization(mean=[1.0, 2, 3], variance=[4.0, 4, 9], invert=True)(img[0, 0]))
d = L.Discretization(num_bins=4, epsilon=0.01)
d.adapt(img.ravel())
print("bins", np.round(d.bin_boundaries, 3).tolist())
show("disc", d(img[0, 0]))
show(
    "disc1",
    L.Discretization(bin_boundaries=[50.0, 100.0, 200.0], output_mode="one_hot")(img[0, 0, :, 0]),
)
show(
    "disc_count",
    L.Discretization(bin_boundaries=[50.0, 100.0, 200.0], output_mode="count")(img[0, :, :, 0]),
)
show("cat_count", L.CategoryEncoding(5, "count")(np.array([[0, 1, 1, 4], [2, 2, 2, 3]])))
show("cat_one", L.CategoryEncoding(5, "one_hot")(np.array([0, 3, 4])))
show("cat_multi1", L.CategoryEncoding(5)(np.array([0, 3, 3])))
show("resize", L.Resizing(4, 5, "bicubic")(img))
show("resize_int", L.Resizing(3, 3)(img.astype("uint8")))
show("center", L.CenterCrop(4, 3)(img))
show("center_small", L.CenterCrop(8, 8)(img[0]))
show("pipe", L.Pipeline([L.Rescaling(0.5), L.CenterCrop(3, 3)])(img))
for name, layer in [
    ("flip", L.RandomFlip(seed=3)),
    ("crop", L.RandomCrop(4, 5, seed=4)),
    ("rot", L.RandomRotation(0.2, seed=5)),
    ("rotc", L.RandomRotation((-0.1, 0.3), fill_mode="constant", interpolation="nearest", seed=6)),
    ("trans", L.RandomTranslation(0.3, (-0.2, 0.1), seed=7)),
    ("zoom", L.RandomZoom(0.4, seed=8)),
    ("zoom2", L.RandomZoom((-0.3, -0.1), (0.1, 0.2), fill_mode="wrap", seed=9)),
    ("contrast", L.RandomContrast(0.5, seed=10)),
    ("bright", L.RandomBrightness((-0.3, 0.2), seed=11)),
]:
    show(name, layer(img))
    show(name + "2", layer(img))
    show(name + "_inf", layer(img, training=False))
show("flip_single", L.RandomFlip("vertical", seed=1)(img[0]))
for name, layer in [
    ("gray", L.RandomGrayscale(0.5, seed=12)),
    ("invert", L.RandomInvert(seed=13)),
    ("solar", L.Solarization(0.3, (0.2, 0.8), seed=14)),
    ("posterize", L.RandomPosterization((2, 6), seed=15)),
]:
    show(name, layer(img))
    show(name + "2", layer(img))
show("autocontrast", L.AutoContrast()(img))
show("autocontrast01", L.AutoContrast(value_range=(0, 1))(img / 255.0))
for name, layer in [
    ("shear", L.RandomShear(0.3, (0.1, 0.2), seed=16)),
    ("height", L.RandomHeight(0.4, seed=17)),
    ("width", L.RandomWidth((-0.3, 0.2), interpolation="nearest", seed=18)),
]:
    show(name, layer(img))
    show(name + "2", layer(img))
