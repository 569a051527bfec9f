"""Layer 4, graphs: ``Graph`` and symbolic tensors, static shape inference, graph
simplifications, compiled plans, ``Session``, symbolic ``gradients``, ``function`` (tracing)
and control flow (``cond``, ``while_loop``)."""

__all__ = [
    "control_flow",
    "function",
    "graph",
    "plan",
    "session",
    "shape_inference",
    "simplify",
    "autograph",
    "captures",
    "concrete_function",
    "signatures",
    "symbolic",
]
