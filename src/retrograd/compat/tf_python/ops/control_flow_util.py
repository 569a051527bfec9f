"""``tensorflow.python.ops.control_flow_util``: questions about TensorFlow 1's control-flow
contexts, answered as TensorFlow answers them under control flow v2 (retrograd's ``cond``
and ``while_loop`` are functional: no op is in a context; see compat.private_modules).

>>> import retrograd as rg
>>> from retrograd.compat.tf_python.ops import control_flow_util
>>> with rg.Graph().as_default() as g:
...     y = rg.constant(1.0) + 1.0
>>> control_flow_util.EnableControlFlowV2(g), control_flow_util.IsInWhileLoop(y.op)
(True, False)
"""

from retrograd.compat.private_modules import (
    ENABLE_CONTROL_FLOW_V2,
    CheckInputFromValidContext,
    EnableControlFlowV2,
    GetContainingCondContext,
    GetContainingWhileContext,
    GetContainingXLAContext,
    GetLoopConstantEnter,
    GetOutputContext,
    GetWhileContext,
    GraphOrParentsInXlaContext,
    InXlaContext,
    IsCondMerge,
    IsCondSwitch,
    IsContainingContext,
    IsInCond,
    IsInWhileLoop,
    IsInXLAContext,
    IsLoopConstantEnter,
    IsLoopEnter,
    IsLoopExit,
    IsLoopMerge,
    IsLoopSwitch,
    IsMerge,
    IsSwitch,
    OpInContext,
    TensorInContext,
    enable_control_flow_v2,
)

__all__ = [
    "CheckInputFromValidContext", "ENABLE_CONTROL_FLOW_V2", "EnableControlFlowV2",
    "GetContainingCondContext", "GetContainingWhileContext", "GetContainingXLAContext",
    "GetLoopConstantEnter", "GetOutputContext", "GetWhileContext",
    "GraphOrParentsInXlaContext", "InXlaContext", "IsCondMerge", "IsCondSwitch",
    "IsContainingContext", "IsInCond", "IsInWhileLoop", "IsInXLAContext",
    "IsLoopConstantEnter", "IsLoopEnter", "IsLoopExit", "IsLoopMerge", "IsLoopSwitch",
    "IsMerge", "IsSwitch", "OpInContext", "TensorInContext", "enable_control_flow_v2",
]  # fmt: skip
