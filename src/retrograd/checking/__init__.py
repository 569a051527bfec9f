"""Layer 5, checking and explaining: finite-difference checks (``gradcheck``,
``compute_gradient``), automatic rule checks, the origin of NaNs (``numerics``) and backward
traces with their renderings (``tracing``), all built on the execution hooks of
``observing``."""

__all__ = [
    "compute_gradient",
    "gradcheck",
    "gradient_checks",
    "numerics",
    "observing",
    "tracing",
]
