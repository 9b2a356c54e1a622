"""A reset gives a fresh env's Chrome whatever the last episode browsed: the episode's pages (their history, cookies,
local and session storage, timers) are gone with Chrome's process, which the rewind stops, so Back from Chrome's
new-tab page leaves Chrome, a page finds nothing stored and no old page logs anything: the played env's screen is
the fresh env's."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest
from ui_nodes import tap

import android_gym  # noqa: F401  (registers the ids)
from android_gym.sim.apps import chrome
from android_gym.sim.phone import Phone

#: A page that stores a cookie and local and session storage and logs a tick now and every 10 ms, and one that shows
#: what its origin has stored.
PAGES = {
    "/store.html": b"""<title>Store</title><h1>Stored</h1><script>document.cookie = 'kept=1; max-age=3600';
localStorage.setItem('kept', '1'); sessionStorage.setItem('kept', '1'); console.log('tick');
setInterval(() => console.log('tick'), 10);</script><p><a href="/read.html">Read</a></p>""",
    "/read.html": b"""<title>Read</title><p id="out"></p><script>document.getElementById('out').textContent =
['cookie:' + document.cookie, 'local:' + localStorage.getItem('kept'), 'session:' + sessionStorage.getItem('kept')]
.join(' ');</script>""",
}
MAIN = f"{chrome.PACKAGE}/{chrome.MAIN_ACTIVITY}"


class _Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802  (http.server's name)
        body = PAGES.get(self.path)
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """``PAGES`` served on loopback (the one network the phone's browser reaches): the site's address."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def _make() -> gym.Env:
    return gym.make("AndroidWorld/SystemWifiTurnOn-v0", device="sim:270x600", max_episode_steps=1000)


def _phone(env: gym.Env) -> Phone:
    return env.unwrapped.device.phone


def _view(url: str) -> str:
    return f"am start -a android.intent.action.VIEW -d {url} -n {MAIN}"


def test_a_reset_after_an_episode_that_browsed_gives_a_fresh_envs_chrome(site):
    fresh, played = _make(), _make()
    played.reset(seed=1)
    phone = _phone(played)
    phone.run(_view(site + "/store.html"))
    tap(phone, text="Read")
    assert "cookie:kept=1 local:1 session:1" in phone.ui_dump()  # the episode stored them (the test can fail)
    phone.run("input keyevent KEYCODE_BACK")
    assert "Stored" in phone.ui_dump()  # the storing page is left in front, ticking
    fresh.reset(seed=7)
    played.reset(seed=7)
    for env in (fresh, played):
        phone = _phone(env)
        # Chrome started from its launcher entry shows its new-tab page; Back from it leaves Chrome
        phone.run(f"logcat -c && am start -n {MAIN} && input keyevent KEYCODE_BACK")
        assert phone.activities.foreground()[0] != chrome.PACKAGE
        phone.run(_view(site + "/read.html"))
        assert "cookie: local:null session:null" in phone.ui_dump()
        assert "tick" not in phone.run("logcat -d -s chromium").stdout.decode()
    assert _phone(played).ui_dump() == _phone(fresh).ui_dump()
    assert np.array_equal(_phone(played).screenshot(), _phone(fresh).screenshot())
    fresh.close()
    played.close()
