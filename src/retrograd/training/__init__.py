"""Layer 6, training: optimizers (and the state they keep) and checkpoint files (``storage``)."""

__all__ = ["optimizers", "storage"]
