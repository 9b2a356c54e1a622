"""``PhoneHost``: services' calls on the phone, one at a time, from worker threads."""

from __future__ import annotations

import asyncio
import threading

import pytest

from android_gym.sim.host import PhoneHost


def test_a_call_that_comes_to_wait_lets_the_event_loop_go_on_and_serve_other_calls(phone):
    """The loop blocks for a call only until it returns or waits (``holding_released``): a call waiting for what
    the loop does next (a host's input, another command's output) never stalls it."""
    host = PhoneHost(phone)

    async def main() -> tuple[str, bytes]:
        go_on = threading.Event()

        def waiting() -> str:
            with host.holding_released():
                go_on.wait()
            return "waited"

        waiter = asyncio.ensure_future(host.run(waiting))
        await asyncio.sleep(0)  # the waiter's call starts and comes to wait
        echoed = await host.run(lambda: host.phone.run("echo meanwhile").stdout)
        go_on.set()
        return await waiter, echoed

    try:
        assert asyncio.run(main()) == ("waited", b"meanwhile\n")
    finally:
        host.close()


def test_a_call_that_fails_raises_in_the_service(phone):
    host = PhoneHost(phone)

    def failing() -> None:
        raise ValueError("no such thing")

    async def main() -> None:
        await host.run(failing)

    try:
        with pytest.raises(ValueError, match="no such thing"):
            asyncio.run(main())
    finally:
        host.close()
