"""Layer 5, checking and explaining: finite-difference checks (``gradcheck`` with its
``finite_differences`` and ``gradcheck_report``, ``compute_gradient``), automatic rule checks
(``gradient_checks``), the shared diagnosis of rules that ignore their upstream gradient
(``upstream``), the origin of NaNs (``numerics``) and backward
traces with their renderings (``tracing``), all built on the execution hooks of
``observing``."""

__all__ = [
    "compute_gradient",
    "finite_differences",
    "gradcheck",
    "gradcheck_report",
    "gradient_checks",
    "numerics",
    "observing",
    "tracing",
    "upstream",
]
