"""``ActionSpace``: the env's ``Dict`` action space, whose vector-env batch also takes per-env actions.

Gymnasium's vector envs (``make_vec``, sync or async) hand each env its slice of a batched action through
``gymnasium.vector.utils.iterate``, which for a ``Dict`` space wants every field as an array with one entry per
env. ``batch_space`` of an ``ActionSpace`` is a ``BatchedActions`` space whose ``iterate`` also takes

* a sequence with one action per env, each in any form a single env's ``step`` takes (a space sample, a JSON
  string, an ``Action``, a dict of JSONAction fields), and
* a batched dict holding only some of the fields (the others take their defaults, as in a single env's dict).

Each env parses its own action, so a malformed one gives that env's ``info["invalid_action"]`` as in a single
env, and the others act.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, iterate


class ActionSpace(spaces.Dict):
    """The Dict action space of one env (``actions.action_space()``)."""


class BatchedActions(spaces.Dict):
    """``batch_space`` of an ``ActionSpace`` for ``n`` envs: the batched Dict space, iterated leniently."""

    def __init__(self, batched: spaces.Dict, n: int) -> None:
        super().__init__(batched.spaces)
        self.n = n


@batch_space.register(ActionSpace)
def _batch_actions(space: ActionSpace, n: int = 1) -> BatchedActions:
    return BatchedActions(batch_space.dispatch(spaces.Dict)(space, n), n)


@iterate.register(BatchedActions)
def _iterate_actions(space: BatchedActions, items: Any) -> Iterator[Any]:
    if isinstance(items, Mapping):
        return iter(_per_env(items, space.n))
    if isinstance(items, (Sequence, np.ndarray)) and not isinstance(items, (str, bytes)):
        if len(items) != space.n:
            raise ValueError(f"{len(items)} actions for {space.n} envs: give one action per env")
        return iter(items)
    raise TypeError(f"a vector env's actions are a batched dict (one entry per env in each field) or a sequence "
                    f"with one action per env, not {type(items).__name__}")


def _per_env(batched: Mapping[str, Any], n: int) -> list[dict[str, Any]]:
    """Env ``i``'s dict of the fields given in ``batched``."""
    for key, values in batched.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or len(values) != n:
            raise ValueError(f"batched action field {key!r} must hold one value per env ({n})")
    return [{key: values[i] for key, values in batched.items()} for i in range(n)]
