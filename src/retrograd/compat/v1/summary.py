"""``retrograd.compat.v1.summary``: TensorFlow 1's summaries and FileWriter (with the
optional extra ``retrograd[summary]``)."""

from retrograd.compat.summaries import FileWriter, histogram, merge, merge_all, scalar

__all__ = ["FileWriter", "histogram", "merge", "merge_all", "scalar"]
