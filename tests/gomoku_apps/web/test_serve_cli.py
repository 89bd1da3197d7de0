"""`gomoku serve` as a person runs it: it prints its address, serves, and Ctrl-C stops
it with every agent process gone."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
from websockets.sync.client import connect

from gomoku_apps.cli.main import main
from tests.gomoku_apps.web.web_agents import failing_spec

ROOT = Path(__file__).resolve().parents[3]
HANG_GUARD_S = 60
"""Seconds after which a server that does not stop fails the test (not a speed check)."""


def start_server(*arguments):
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gomoku_apps.cli.main",
            "serve",
            "--port",
            "0",
            *arguments,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as in a terminal
    )
    line = server.stdout.readline()
    assert "serving on http://127.0.0.1:" in line, line + server.stderr.read()
    url = line.split()[3]
    address, _, token = url.partition("?token=")
    assert len(token) >= 16, url  # the run's token is in the printed address
    return server, address, token


def post(address, token, path, body):
    request = urllib.request.Request(
        address + path.lstrip("/"),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Gomoku-Token": token},
    )
    with urllib.request.urlopen(request, timeout=HANG_GUARD_S) as response:
        return json.loads(response.read())


def descendants(pid):
    """Ids of every process below ``pid`` (read from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find children")
def test_ctrl_c_stops_the_server_and_every_agent_process():
    server, address, token = start_server("--allow-programs")
    try:
        sleeper = failing_spec("Sleeper")  # thinks for a minute
        thinking = post(
            address, token, "/api/games", {"black": sleeper, "white": "human"}
        )
        random_game = {"black": "random", "white": "random", "size": 7}
        post(address, token, "/api/games", random_game)
        assert urllib.request.urlopen(address, timeout=HANG_GUARD_S).status == 200
        websocket_address = (
            address.replace("http", "ws")
            + f"api/games/{thinking['id']}/ws?token={token}"
        )
        with connect(websocket_address) as websocket:
            assert json.loads(websocket.recv())["type"] == "state"
            children = descendants(server.pid)
            assert len(children) >= 3  # three agents, and the process server
            os.killpg(server.pid, signal.SIGINT)  # Ctrl-C in a terminal
            assert server.wait(HANG_GUARD_S) == 0
        deadline = time.monotonic() + HANG_GUARD_S
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if alive(pid)]
        output = server.stdout.read()
        assert "server stopped" in output
        assert "Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


def test_a_port_in_use_is_a_clear_error(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_a_bad_port_is_a_clear_error(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "70000" in capsys.readouterr().err


def test_a_move_time_past_the_clock_s_range_is_refused(capsys):
    """--move-time 1e10 was accepted and every agent game then ended at move 1 with
    an OverflowError."""
    with pytest.raises(SystemExit):
        main(["serve", "--move-time", "1e10"])
    assert "<= 3600" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.3.4.5", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_only_loopback_hosts_count_as_local(host, local):
    from gomoku_apps.web.server import is_loopback

    assert is_loopback(host) is local


class StopsAtOnce:
    """Stands in for the uvicorn server: runs a moment (so the browser is opened)."""

    def run(self, sockets):
        time.sleep(1.5)


def test_open_shows_no_token_on_the_browsers_command_line(monkeypatch, tmp_path):
    """``--open`` passed the token URL to the browser's command line, readable by
    every local user in /proc/PID/cmdline; it now opens a private redirect file."""
    import webbrowser

    from gomoku_apps.web import server

    opened = []
    seen = {}

    def record(url, *args, **kwargs):
        opened.append(url)
        if url.startswith("file://"):  # read it while the server runs
            path = Path(urllib.request.url2pathname(url.removeprefix("file://")))
            seen["mode"] = path.stat().st_mode & 0o777
            seen["folder_mode"] = path.parent.stat().st_mode & 0o777
            seen["text"] = path.read_text()
        return True

    monkeypatch.setattr(webbrowser, "open", record)
    monkeypatch.setattr(server, "_uvicorn_server", lambda *args: StopsAtOnce())
    listener = server.bind("127.0.0.1", 0)
    token = "a-secret-token-0123456789"
    url = server.page_url(listener, token)
    try:
        server.serve(listener, token, open_browser=True)
    finally:
        listener.close()
    assert len(opened) == 1
    assert token not in opened[0], opened[0]
    assert opened[0].startswith("file://")
    assert seen["mode"] == 0o600 and seen["folder_mode"] == 0o700
    assert f'url={url}"' in seen["text"]
    assert not Path(urllib.request.url2pathname(opened[0][7:])).exists()


def test_a_loopback_server_runs_no_program_a_page_names_unless_asked(monkeypatch):
    """On loopback ``python:`` and ``engine:`` specs ran without being asked for: with
    the token, another local user ran code as the person who started the server."""
    from gomoku_apps.web import server

    given = []
    monkeypatch.setattr(
        server,
        "serve",
        lambda listener, token, browser, **options: given.append(options),
    )
    assert main(["serve", "--port", "0"]) == 0
    assert main(["serve", "--port", "0", "--allow-programs"]) == 0
    assert [options["allow_programs"] for options in given] == [False, True]
