"""pytest configuration shared by the test tree."""

# tests/*/data hold recorded reference values and the TensorFlow script that made them;
# TensorFlow is not a dependency, so that script is never imported here.
collect_ignore_glob = ["*/data/*", "programs/tf2/*"]
