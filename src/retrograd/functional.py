"""Function transforms, as JAX and ``torch.func`` offer them: ``grad``, ``value_and_grad``,
``vjp``, ``jvp``, ``jacfwd``, ``jacrev`` (``jacobian``), ``hessian`` and ``hvp``.

>>> import retrograd as rg
>>> from retrograd import functional as F
>>> F.grad(lambda x: rg.reduce_sum(x ** 3))(rg.constant([1.0, 2.0])).numpy().tolist()
[3.0, 12.0]
"""

from retrograd.autodiff.functional import *  # noqa: F403  (exactly the names of its __all__)
from retrograd.autodiff.functional import __all__  # noqa: F401
