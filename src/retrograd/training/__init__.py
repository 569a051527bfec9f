"""Layer 6, training: optimizers (and the state they keep), ``Module`` (named containers of
variables), checkpoints (``checkpoint``) and the files they are written to (``storage``)."""

__all__ = ["optimizers", "storage", "module"]
