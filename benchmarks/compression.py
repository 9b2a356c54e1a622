"""How much UI text compression saves: characters (and tokens, with a tokenizer) of the raw uiautomator XML
against the compressed text, on every distinct screen the task oracles pass through and on the real device dump
in tests/fixtures.

Usage: python benchmarks/compression.py [--form text|json] [--tokens cl100k_base]

``--tokens`` counts tokens too, with a tiktoken-compatible package: ``bpe-openai`` (vocabularies bundled, works
offline) or ``tiktoken`` (downloads its encoding files). Characters are always counted.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Iterator
from pathlib import Path

import gymnasium as gym

import android_gym
from android_gym.tasks.oracle import OraclePolicy
from android_gym.wrappers.compression import compress_ui

FIXTURES = Path(__file__).parent.parent / "tests" / "fixtures" / "uiautomator"


def oracle_screens(seed: int = 0) -> Iterator[tuple[str, str]]:
    """(task, uiautomator XML) of every distinct screen each task's oracle passes through."""
    seen: set[str] = set()
    for task in android_gym.task_names(include_aliases=False):
        env = gym.make(android_gym.env_id(task), pixels=False)
        try:
            observation, info = env.reset(seed=seed)
            policy = OraclePolicy(env.unwrapped.task.oracle())
            while True:
                if observation["a11y_tree"] not in seen:
                    seen.add(observation["a11y_tree"])
                    yield task, env.unwrapped.device.ui_dump()
                if policy.done:
                    break
                observation, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
                if terminated or truncated:
                    break
        finally:
            env.close()


def token_counter(encoding_name: str) -> Callable[[str], int]:
    """Token counts with ``bpe_openai`` (offline), else ``tiktoken``."""
    try:
        import bpe_openai as tokenizers
    except ImportError:
        import tiktoken as tokenizers
    encoding = tokenizers.get_encoding(encoding_name)
    return lambda text: len(encoding.encode(text))


def main() -> None:
    """Print the reduction per app and overall."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--form", choices=("text", "json"), default="text")
    parser.add_argument("--tokens", metavar="ENCODING", help="also count tokens with this encoding (cl100k_base, …)")
    args = parser.parse_args()
    count_tokens = token_counter(args.tokens) if args.tokens else None

    screens = [("fixture " + path.stem, path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.xml"))]
    screens += list(oracle_screens())
    by_app: dict[str, list[tuple[int, int, int, int]]] = {}
    for source, xml in screens:
        compressed = compress_ui(xml)
        text = compressed.render(args.form)
        tokens = (count_tokens(xml), count_tokens(text)) if count_tokens else (0, 0)
        app = source if source.startswith("fixture") else compressed.package or "(empty)"
        by_app.setdefault(app, []).append((len(xml), len(text), *tokens))
    header = f"{'screens':>7}  {'app':<48} {'XML chars':>10} {'compressed':>10} {'saved':>6}"
    print(header + (f" {'XML tok':>8} {'tok':>6} {'saved':>6}" if count_tokens else ""))
    everything = [row for rows in by_app.values() for row in rows]
    for app, rows in sorted(by_app.items()) + [("all", everything)]:
        raw, small = statistics.mean(r[0] for r in rows), statistics.mean(r[1] for r in rows)
        line = f"{len(rows):>7}  {app:<48} {raw:>10.0f} {small:>10.0f} {1 - small / raw:>6.1%}"
        if count_tokens:
            raw_t, small_t = statistics.mean(r[2] for r in rows), statistics.mean(r[3] for r in rows)
            line += f" {raw_t:>8.0f} {small_t:>6.0f} {1 - small_t / raw_t:>6.1%}"
        print(line)


if __name__ == "__main__":
    main()
