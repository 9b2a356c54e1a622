"""A seed keeps drawing the same parameters: recorded episodes replay by seed, so a change that makes a task's
``generate_params`` cheaper must not change what it draws. ``fixtures/param_digests.json`` holds, per task, a
digest of its parameters for seeds 0–2 as Gymnasium seeds the env's generator; rewrite it (``python
tests/test_param_draws.py``) only for a change of draws that is meant."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils import seeding

from android_gym.tasks import draws
from android_gym.tasks.registry import get_task, task_names

DIGESTS = Path(__file__).parent / "fixtures" / "param_digests.json"
SEEDS = (0, 1, 2)


def canonical(value: Any) -> Any:
    """``value`` as nested lists of type names and reprs, independent of object identity and of set order."""
    if isinstance(value, dict):
        return ["dict", [[canonical(key), canonical(item)] for key, item in value.items()]]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [canonical(item) for item in value]]
    if isinstance(value, (set, frozenset)):
        return [type(value).__name__, sorted(repr(canonical(item)) for item in value)]
    if isinstance(value, np.ndarray):
        return ["ndarray", str(value.dtype), list(value.shape), hashlib.sha256(value.tobytes()).hexdigest()]
    return [type(value).__name__, repr(value)]


def digest(task: str) -> str:
    """A digest of ``task``'s parameters for ``SEEDS``."""
    task_class = get_task(task)
    draws = [canonical(task_class.generate_params(seeding.np_random(seed)[0])) for seed in SEEDS]
    return hashlib.sha256(repr(draws).encode()).hexdigest()[:16]


@pytest.mark.parametrize("task", task_names(include_aliases=False))
def test_a_seed_draws_the_parameters_it_drew(task):
    pinned = json.loads(DIGESTS.read_text())
    assert task in pinned, f"{task} has no pinned digest: add it with python tests/test_param_draws.py"
    assert digest(task) == pinned[task]


def without_exact_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every module that draws through ``draws.exact_draws`` draws from the generator itself instead."""
    for module in list(sys.modules.values()):
        if getattr(module, "exact_draws", None) is draws.exact_draws:
            monkeypatch.setattr(module, "exact_draws", contextlib.nullcontext)


SPEC_TASKS = [name for name in task_names(include_aliases=False) if hasattr(get_task(name), "noise_rows")]


@pytest.mark.parametrize("task", SPEC_TASKS)
def test_declarative_tasks_draw_the_noise_rows_the_generator_draws(task, monkeypatch):
    task_class = get_task(task)
    made = [task_class(task_class.generate_params(seeding.np_random(seed)[0])) for seed in SEEDS]
    fast = [instance.noise_rows() for instance in made]
    without_exact_draws(monkeypatch)
    assert [instance.noise_rows() for instance in made] == fast


@pytest.mark.parametrize("k", [0, 1, 2, 5, 401])
@pytest.mark.parametrize("exact", [False, True], ids=["generator", "exact_draws"])
def test_sample_indices_draws_what_choice_without_replacement_draws(k, exact):
    """The indices and the generator's state afterwards, drawn from the generator or through ``exact_draws``, from
    pools small and large (more than a fiftieth of over 10,000 values: NumPy shuffles the range's tail instead), from
    a generator that keeps half of a 64-bit output or not."""
    for seed in range(40):
        for n in (k, 7, 50, 10_000, 20_000, 2**31):
            if n < k or (n == 2**31 and k > 5):
                continue
            ours, numpy = np.random.default_rng(seed), np.random.default_rng(seed)
            for rng in (ours, numpy):
                rng.integers(2**40 if seed % 2 else 5)
            with draws.exact_draws(ours) if exact else contextlib.nullcontext(ours) as rng:
                picked = draws.sample_indices(rng, n, k)
            assert picked == [int(i) for i in numpy.choice(n, size=k, replace=False)]
            assert ours.bit_generator.state == numpy.bit_generator.state


@pytest.mark.parametrize("exact", [False, True], ids=["generator", "exact_draws"])
def test_integer_list_draws_what_an_array_of_integers_draws(exact):
    """``integer_list`` gives ``rng.integers(high, size=count)``'s values and leaves the generator where it would, from
    a generator that keeps half of a 64-bit output or not."""
    for seed in range(30):
        ours, numpy = np.random.default_rng(seed), np.random.default_rng(seed)
        for rng in (ours, numpy):
            rng.integers(2**40 if seed % 2 else 5)
        for high, count in ((62, 20), (7, 0), (2**31, 5), (2, 33)):
            with draws.exact_draws(ours) if exact else contextlib.nullcontext(ours) as rng:
                drawn = draws.integer_list(rng, high, count)
            assert drawn == numpy.integers(high, size=count).tolist()
            assert ours.bit_generator.state == numpy.bit_generator.state


def test_the_digest_sees_a_changed_value_and_not_set_order():
    params = get_task("ExpenseDeleteMultiple2").generate_params(seeding.np_random(0)[0])
    changed = {**params, "rows": [{**params["rows"][0], "amount": params["rows"][0]["amount"] + 1},
                                  *params["rows"][1:]]}
    assert canonical(params) != canonical(changed)
    assert canonical({"a", "b"}) == canonical({"b", "a"}) and canonical((1,)) != canonical([1])


if __name__ == "__main__":
    known = json.loads(DIGESTS.read_text()) if DIGESTS.exists() and "--all" not in sys.argv else {}
    DIGESTS.write_text(json.dumps({**known, **{task: digest(task) for task in task_names(include_aliases=False)}},
                                  indent=1, sort_keys=True) + "\n")
