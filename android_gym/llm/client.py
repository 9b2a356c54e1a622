"""A chat-completions client for any OpenAI-compatible server (OpenAI, vLLM, Ollama, LiteLLM, ...), through the
``openai`` library: retries with exponential backoff on rate limits, server errors and timeouts, a timeout per
request, and token and cost accounting from the servers' ``usage`` reports.

``openai`` is an optional dependency (``pip install -e ".[llm]"``); it is imported when a client is made, so
``android_gym.llm`` itself imports without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from android_gym.errors import LLMConfigError, LLMDependencyError, LLMRequestError

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
#: HTTP statuses worth another try: request timeout, conflict, rate limit, and the server's own errors.
RETRY_STATUSES = frozenset({408, 409, 429})
#: A price table: model name → (US dollars per million input tokens, per million output tokens).
Prices = Mapping[str, tuple[float, float]]
Message = dict[str, Any]


def _openai() -> Any:
    """The ``openai`` module, or ``LLMDependencyError`` saying how to install it."""
    try:
        import openai
    except ImportError as error:
        raise LLMDependencyError('the LLM agent needs the openai client: pip install -e ".[llm]" '
                                 '(or pip install "openai>=1.40")') from error
    return openai


@dataclass
class Usage:
    """Tokens and requests spent, summed over the replies received (an episode's, or a client's lifetime).

    ``cost`` is in US dollars from the price table, ``None`` when the model has no price there;
    ``unreported`` counts replies whose server sent no ``usage`` (their tokens are not in the sums).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0
    retries: int = 0
    failures: int = 0
    unreported: int = 0
    cost: float | None = None

    @property
    def total_tokens(self) -> int:
        """Prompt and completion tokens together."""
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        """Add ``other``'s counts (and cost, when both have one; a known cost added to none stays known)."""
        for name in ("prompt_tokens", "completion_tokens", "requests", "retries", "failures", "unreported"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost


@dataclass(frozen=True)
class ChatReply:
    """One completed chat request: the reply's text and what it cost (``usage.requests`` is 1, ``retries`` the
    failed attempts before it)."""

    text: str
    usage: Usage = field(default_factory=Usage)


def price(prices: Prices, model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
    """The cost in US dollars of the tokens at ``model``'s price per million, ``None`` if it has none."""
    if model not in prices:
        return None
    per_input, per_output = prices[model]
    return (prompt_tokens * per_input + completion_tokens * per_output) / 1_000_000


def check_prices(prices: Any) -> dict[str, tuple[float, float]]:
    """``prices`` as a price table; ``LLMConfigError`` naming the bad entry if it is not one."""
    if not isinstance(prices, Mapping):
        raise LLMConfigError(f"prices must map model names to [input, output] US dollars per million tokens, "
                             f"got {type(prices).__name__}")
    table = {}
    for model, pair in prices.items():
        if (not isinstance(model, str) or not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in pair)):
            raise LLMConfigError(f"prices[{model!r}] must be [input, output] US dollars per million tokens "
                                 f"(two numbers >= 0), got {pair!r}")
        table[model] = (float(pair[0]), float(pair[1]))
    return table


class ChatClient:
    """Sends chat requests to one model of an OpenAI-compatible server.

    ## Arguments
    ``model``: the server's model name. ``base_url``: the server (default: the openai library's, i.e.
    ``OPENAI_BASE_URL`` or OpenAI's). ``api_key``: the key itself, else read from the environment variable
    ``api_key_env`` (default ``OPENAI_API_KEY``). ``timeout``: seconds per request. ``max_retries``: further
    attempts after a rate limit (429), a server error (5xx), 408/409, a timeout or a lost connection, waiting
    ``backoff`` seconds, then twice as long each time up to ``max_backoff`` (longer if the server's
    ``Retry-After`` asks). ``sleep``: how to wait (tests pass a recorder). ``prices``: see ``Prices``.
    ``temperature``, ``max_tokens``: sent with each request (``max_tokens`` only when given).
    """

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str = DEFAULT_API_KEY_ENV, timeout: float = 60.0, max_retries: int = 4,
                 backoff: float = 1.0, max_backoff: float = 30.0, sleep: Callable[[float], None] = time.sleep,
                 prices: Prices | None = None, temperature: float = 0.0, max_tokens: int | None = None) -> None:
        if not isinstance(model, str) or not model.strip():
            raise LLMConfigError("no model given: pass model=... (or set ANDROID_GYM_LLM_MODEL), the server's name "
                                 "for it, e.g. gpt-4o-mini")
        for name, value in (("timeout", timeout), ("backoff", backoff), ("max_backoff", max_backoff)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise LLMConfigError(f"{name} must be a number of seconds > 0, got {value!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise LLMConfigError(f"max_retries must be an integer >= 0, got {max_retries!r}")
        key = api_key if api_key is not None else os.environ.get(api_key_env)
        if not key:
            raise LLMConfigError(f"no API key: set the environment variable {api_key_env} (or name another with "
                                 "api_key_env=...); a local server that needs none takes any value")
        openai = _openai()
        self.model, self.timeout, self.max_retries = model, float(timeout), max_retries
        self.backoff, self.max_backoff, self._sleep = float(backoff), float(max_backoff), sleep
        self.prices = check_prices({} if prices is None else prices)
        self.options: dict[str, Any] = {"temperature": temperature}
        if max_tokens is not None:
            self.options["max_tokens"] = max_tokens
        self._errors = openai
        self._client = openai.OpenAI(api_key=key, base_url=base_url, timeout=self.timeout, max_retries=0)
        self.base_url = str(self._client.base_url)

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        """The model's reply to ``messages``; ``LLMRequestError`` when the server refuses or every try fails."""
        retries = 0
        while True:
            try:
                response = self._client.chat.completions.create(model=self.model, messages=list(messages),
                                                                **self.options)
            except self._errors.APIError as error:
                wait = self._retry_wait(error, retries)
                if wait is None:
                    raise LLMRequestError(self._describe(error, retries), attempts=retries + 1) from error
                retries += 1
                self._sleep(wait)
                continue
            return ChatReply(text=self._text(response), usage=self._usage(response, retries))

    def _retry_wait(self, error: Exception, retries: int) -> float | None:
        """Seconds to wait before retrying after ``error``, or ``None`` when it is not worth another try."""
        status = getattr(error, "status_code", None)
        transient = isinstance(error, self._errors.APIConnectionError) or (  # timeouts are connection errors
            status is not None and (status in RETRY_STATUSES or status >= 500))
        if not transient or retries >= self.max_retries:
            return None
        wait = min(self.backoff * 2 ** retries, self.max_backoff)
        response = getattr(error, "response", None)
        asked = response.headers.get("retry-after") if response is not None else None
        try:
            return max(wait, min(float(asked), self.max_backoff)) if asked else wait
        except ValueError:  # an HTTP date instead of seconds
            return wait

    def _describe(self, error: Exception, retries: int) -> str:
        status = getattr(error, "status_code", None)
        what = f"HTTP {status}" if status is not None else type(error).__name__
        tries = f" after {retries + 1} attempts" if retries else ""
        return f"chat request to {self.model} at {self.base_url} failed{tries}: {what}: {error}"

    @staticmethod
    def _text(response: Any) -> str:
        choices = getattr(response, "choices", None) or []
        content = choices[0].message.content if choices else None
        return content if isinstance(content, str) else ""

    def _usage(self, response: Any, retries: int) -> Usage:
        reported = getattr(response, "usage", None)
        prompt = int(getattr(reported, "prompt_tokens", 0) or 0)
        completion = int(getattr(reported, "completion_tokens", 0) or 0)
        return Usage(prompt_tokens=prompt, completion_tokens=completion, requests=1, retries=retries,
                     unreported=int(reported is None), cost=price(self.prices, self.model, prompt, completion))
