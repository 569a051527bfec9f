"""``retrograd.data`` (``tf.data``): in-memory input pipelines."""

from retrograd.data.dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset

__all__ = ["AUTOTUNE", "Dataset", "INFINITE", "UNKNOWN"]
