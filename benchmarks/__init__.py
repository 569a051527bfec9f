"""retrograd's benchmarks: ``python -m benchmarks`` (``--quick`` for a seconds-long run).

Each workload runs eagerly and under ``function``; times are medians, reported as ratios to
hand-written NumPy doing the same forward and backward work in the same run.
"""
