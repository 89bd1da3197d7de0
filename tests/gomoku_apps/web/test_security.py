"""Who may use `gomoku serve` (issue 24): the run's token, the Host, the Origin and
the content type of every state-changing request; weights files off loopback; strict
fields and short echoes in refusals."""

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from starlette.websockets import WebSocketDisconnect

from gomoku_apps.web.guard import Access
from tests.gomoku_apps.web.helpers import TOKEN, client, new_game

GAME = {"size": 7, "black": "human", "white": "human"}
FOREIGN = "http://evil.example"


def games(api):
    return len(api.get("/api/games").json()["games"])


def test_the_page_itself_needs_no_token_but_the_api_does(api):
    assert api.get("/", headers={"X-Gomoku-Token": ""}).status_code == 200
    assert api.get("/static/app.js", headers={"X-Gomoku-Token": ""}).status_code == 200
    for token in ("", "wrong", TOKEN + "x"):
        response = api.get("/api/games", headers={"X-Gomoku-Token": token})
        assert response.status_code == 403 and "token" in response.json()["error"]
    assert api.get(f"/api/agents?token={TOKEN}", headers={"X-Gomoku-Token": TOKEN})


def test_a_post_without_the_token_creates_nothing(api):
    before = games(api)
    response = api.post("/api/games", json=GAME, headers={"X-Gomoku-Token": "guess"})
    assert response.status_code == 403
    assert games(api) == before


def test_the_token_in_the_query_serves_links_that_cannot_carry_headers(api):
    game_id = new_game(api, **GAME)["id"]
    response = api.get(
        f"/api/games/{game_id}/record?token={TOKEN}", headers={"X-Gomoku-Token": ""}
    )
    assert response.status_code == 200 and "human" in response.text


def test_a_cross_origin_post_is_refused_even_with_the_token(api):
    before = games(api)
    response = api.post("/api/games", json=GAME, headers={"Origin": FOREIGN})
    assert response.status_code == 403 and "evil.example" in response.json()["error"]
    assert games(api) == before
    game_id = new_game(api, **GAME)["id"]
    assert (
        api.delete(f"/api/games/{game_id}", headers={"Origin": FOREIGN}).status_code
        == 403
    )
    assert api.get(f"/api/games/{game_id}").status_code == 200
    same = api.post("/api/games", json=GAME, headers={"Origin": "http://testserver"})
    assert same.status_code == 201


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", None]
)
def test_a_simple_request_body_is_not_read_as_json(api, content_type):
    """A page on another site can POST text/plain or a form without a preflight."""
    before = games(api)
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = api.post(
        "/api/games", content=b'{"black": "python:os:getcwd"}', headers=headers
    )
    assert (
        response.status_code == 415 and "application/json" in response.json()["error"]
    )
    assert games(api) == before


def test_a_foreign_host_is_refused(api):
    """A DNS-rebinding page reaches the server under its own name."""
    for path in ("/", "/api/games"):
        response = api.get(path, headers={"Host": "rebind.example:8000"})
        assert (
            response.status_code == 403 and "rebind.example" in response.json()["error"]
        )


@pytest.mark.parametrize(
    ("headers", "path"),
    [
        ({"Origin": FOREIGN}, "ws"),  # another site's page
        ({"X-Gomoku-Token": ""}, "ws?token=wrong"),
        ({"X-Gomoku-Token": ""}, "ws"),  # no token at all
        ({"Host": "rebind.example"}, "ws"),
    ],
)
def test_a_foreign_websocket_handshake_is_refused(api, headers, path):
    game_id = new_game(api, **GAME)["id"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        api.websocket_connect(f"/api/games/{game_id}/{path}", headers=headers) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    assert api.get(f"/api/games/{game_id}").json()["moves"] == []


def test_the_own_origin_websocket_with_the_token_plays(api):
    game_id = new_game(api, **GAME)["id"]
    path = f"/api/games/{game_id}/ws?token={TOKEN}"
    headers = {"Origin": "http://testserver", "X-Gomoku-Token": ""}
    with api.websocket_connect(path, headers=headers) as websocket:
        assert websocket.receive_json()["type"] == "state"
        websocket.send_json({"type": "move", "point": "d4"})
        assert websocket.receive_json()["moves"] == ["d4"]


@pytest.mark.parametrize(
    ("host", "port", "loopback", "accepted", "refused"),
    [
        (
            "127.0.0.1",
            8000,
            True,
            ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000"],
            ["127.0.0.1:8001", "rebind.example:8000", "127.0.0.1", ""],
        ),
        (
            "0.0.0.0",
            8000,
            False,
            ["192.168.1.7:8000", "[fe80::1]:8000", "localhost:8000"],
            ["192.168.1.7:9000", "rebind.example:8000"],
        ),
        ("192.168.1.7", 80, False, ["192.168.1.7", "192.168.1.7:80"], ["10.0.0.1:80"]),
    ],
)
def test_the_hosts_a_server_answers(host, port, loopback, accepted, refused):
    access = Access.served("t", host, port, loopback)
    assert all(access.host_allowed(name) for name in accepted)
    assert not any(access.host_allowed(name) for name in refused)


def test_a_binary_websocket_message_is_answered_and_the_socket_closed(api):
    game_id = new_game(api, **GAME)["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        websocket.send_bytes(b'{"type": "move", "point": "d4"}')
        reply = websocket.receive_json()
        assert reply["type"] == "error" and "binary" in reply["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_json()
        assert closed.value.code == 1003
    assert api.get(f"/api/games/{game_id}").json()["moves"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"type": "move", "point": "a1", "bogus": 1},
        {"type": "undo", "point": "a1"},
        {"type": "speed", "delay": 1, "color": "black"},
        {"type": "new", "x" * 10_000: 1},
    ],
)
def test_unknown_command_fields_are_refused_rest_and_websocket(api, body):
    game_id = new_game(api, **GAME)["id"]
    response = api.post(f"/api/games/{game_id}/commands", json=body)
    assert response.status_code == 400, response.text
    assert "unknown field" in response.json()["error"]
    assert len(response.json()["error"]) < 300
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        websocket.send_json(body)
        reply = websocket.receive_json()
        assert reply["type"] == "error" and "unknown field" in reply["message"]
    assert api.get(f"/api/games/{game_id}").json()["moves"] == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/games/{long}", None),
        ("DELETE", "/api/games/{long}", None),
        ("POST", "/api/games/{long}/commands", {"type": "undo"}),
        ("POST", "/api/games/{game}/commands", {"type": "move", "point": "{long}"}),
        ("POST", "/api/games/{game}/commands", {"type": "{long}"}),
        (
            "POST",
            "/api/games/{game}/commands",
            {"type": "move", "point": "a1", "color": "{long}"},
        ),
        ("POST", "/api/games", {"rule": "{long}"}),
        ("POST", "/api/games", {"size": "{long}"}),
        ("POST", "/api/games", {"black": "{long}"}),
        ("POST", "/api/games", {"black": "mcts:{long}=1"}),
        ("POST", "/api/games", {"delay": "{long}"}),
    ],
)
def test_refusals_quote_a_short_prefix_of_the_input(api, method, path, body):
    game_id = new_game(api, **GAME)["id"]
    long = "q" * 10_000

    def fill(text):  # a spec over 500 characters is refused before it is read
        return text.format(long=long[:400] if "mcts" in text else long, game=game_id)

    body = None if body is None else {key: fill(value) for key, value in body.items()}
    response = api.request(method, fill(path), json=body)
    assert response.status_code in (400, 404), response.text
    assert "qqqq" in response.json()["error"] or "rule" in response.json()["error"]
    assert len(response.json()["error"]) <= 400, len(response.json()["error"])


def test_an_unknown_game_id_is_cut_in_its_error(api):
    response = api.get("/api/games/" + "z" * 10_000)
    message = response.json()["error"]
    assert response.status_code == 404 and "zzzz" in message and "…" in message
    assert len(message) < 100


@pytest.fixture(scope="module")
def remote(tmp_path_factory):
    """A server as off loopback: no programs, weights from a folder of its own."""
    folder = tmp_path_factory.mktemp("weights")
    (folder / "mine.pt").write_bytes(b"not a network")
    with client(allow_programs=False, weights_dir=folder) as api:
        yield api, folder


class TestWeightsOffLoopback:
    """Without programs allowed, a weights option names a bundled network or a
    file in the server's weights folder, and every other value gets one answer."""

    def test_missing_unreadable_and_existing_files_are_refused_alike(
        self, remote, tmp_path
    ):
        api, folder = remote
        existing = tmp_path / "real.pt"
        existing.write_bytes(b"x")
        unreadable = tmp_path / "secret.pt"
        unreadable.write_bytes(b"x")
        unreadable.chmod(0)
        values = [
            str(existing),
            str(unreadable),
            str(tmp_path / "missing.pt"),
            "/etc/passwd",
            "../weights/mine.pt",
            str(folder / "mine.pt"),  # the folder's file, but by a path
            "..",
            "~/x",
        ]
        errors = set()
        for value in values:
            response = api.post(
                "/api/games", json={"black": f"alphazero:weights={value}"}
            )
            assert response.status_code == 400, response.text
            errors.add(response.json()["error"])
        assert len(errors) == 1, errors
        assert "bundled" in errors.pop()

    def test_a_file_of_the_weights_folder_is_named_to_the_agent(self, remote):
        from gomoku_apps.web.requests import SpecPolicy, check_spec

        _, folder = remote
        spec = check_spec(
            "alphazero:simulations=2,weights=mine.pt", SpecPolicy(False, folder)
        )
        assert spec == f"alphazero:simulations=2,weights={folder / 'mine.pt'}"
        assert check_spec("alphazero:weights=none", SpecPolicy(False, None)) == (
            "alphazero:weights=none"
        )

    def test_on_loopback_the_page_may_name_any_file_but_no_program(self):
        from gomoku_apps.web.requests import RequestError, SpecPolicy, check_spec

        spec = "alphazero:weights=/tmp/any.pt"
        assert check_spec(spec, SpecPolicy(loopback=True)) == spec
        with pytest.raises(RequestError, match="--allow-programs"):
            check_spec("engine:/bin/true", SpecPolicy(loopback=True))

    def test_asked_for_programs_the_page_may_name_them(self):
        from gomoku_apps.web.requests import SpecPolicy, check_spec

        program = "engine:/bin/true"
        assert check_spec(program, SpecPolicy(allow_programs=True)) == program
