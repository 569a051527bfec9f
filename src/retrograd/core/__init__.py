"""Layer 1, the core: dtypes, shapes, ``Tensor``, ``Variable``, ``execute`` (the one door
every op goes through, and the records tapes keep), the gradient registry, ``nest`` and the
error types. It imports nothing from the layers above; ops register the few hooks it needs
(``tensor.set_stack_op``)."""

__all__ = [
    "annotations",
    "atomic_files",
    "backends",
    "display",
    "dtypes",
    "errors",
    "execute",
    "gpu",
    "names",
    "nest",
    "registry",
    "shapes",
    "tensor",
    "variables",
]
