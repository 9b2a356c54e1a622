"""A chat-completions server on loopback for the LLM agent's tests: it speaks the OpenAI API's
``POST /v1/chat/completions`` (the request and response JSON the ``openai`` client sends and reads), records every
request, and answers from a script, since no model can be reached here."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """A completion: ``text`` and the ``usage`` the server reports (``None`` leaves ``usage`` out)."""

    text: str
    prompt_tokens: int | None = 120
    completion_tokens: int = 30


@dataclass(frozen=True)
class Failure:
    """An HTTP error with an OpenAI-style error body (and a ``Retry-After`` header when given)."""

    status: int
    retry_after: str | None = None


@dataclass(frozen=True)
class Hang:
    """No answer until the server stops (the client's timeout fires first)."""


Answer = Reply | Failure | Hang | str


@dataclass
class ChatServer:
    """``with ChatServer(script) as server:`` serves ``server.base_url``; ``script`` is the answers in order (a
    ``str`` is a ``Reply`` of that text), or a function from the request body to an answer. ``requests`` holds
    the request bodies received."""

    script: Iterable[Answer] | Callable[[dict[str, Any]], Answer]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __enter__(self) -> ChatServer:
        answers = None if callable(self.script) else iter(self.script)
        stopped = self._stopped = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                answer = server.script(body) if answers is None else next(answers)
                if isinstance(answer, str):
                    answer = Reply(answer)
                if isinstance(answer, Hang):
                    stopped.wait()
                    return
                if isinstance(answer, Failure):
                    payload = {"error": {"message": f"scripted failure {answer.status}", "type": "server_error",
                                         "code": None}}
                    headers = {"Retry-After": answer.retry_after} if answer.retry_after else {}
                    self._send(answer.status, payload, headers)
                    return
                payload = {"id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion", "created": 0,
                           "model": body["model"], "choices": [{"index": 0, "finish_reason": "stop",
                                                                "message": {"role": "assistant",
                                                                            "content": answer.text}}]}
                if answer.prompt_tokens is not None:
                    payload["usage"] = {"prompt_tokens": answer.prompt_tokens,
                                        "completion_tokens": answer.completion_tokens,
                                        "total_tokens": answer.prompt_tokens + answer.completion_tokens}
                self._send(200, payload, {})

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                """Quiet."""

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    @property
    def base_url(self) -> str:
        """The ``base_url`` for the ``openai`` client."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __exit__(self, *exc: Any) -> None:
        self._stopped.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
