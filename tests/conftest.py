"""pytest configuration shared by the test tree."""

# tests/*/data hold recorded reference values and the TensorFlow script that made them;
# TensorFlow is not a dependency, so that script is never imported here.
# tests/programs/{seeds,tf1,tf2} hold whole TensorFlow programs, run in subprocesses under
# `retrograd run` (importing them here would import tensorflow).
collect_ignore_glob = ["data/*", "*/data/*", "programs/seeds/*", "programs/tf1/*", "programs/tf2/*"]
