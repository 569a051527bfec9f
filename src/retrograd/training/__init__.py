"""Layer 6, training: optimizers (and the state they keep)."""

__all__ = ["optimizers"]
