"""The JSON API of `gomoku serve`, endpoint by endpoint, and every refusal."""

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from gomoku_apps.web.requests import MAX_REQUEST_BYTES
from gomoku_env import GameConfig
from gomoku_env.records import GameRecord
from tests.gomoku_apps.web.helpers import client, new_game, wait_for

JSON = {"Content-Type": "application/json"}
TEXT = {"Content-Type": "text/plain"}


def two_people(api, size=7):
    return new_game(api, size=size, black="human", white="human", seed=1)


def command(api, game_id, **body):
    return api.post(f"/api/games/{game_id}/commands", json=body)


def test_page_and_its_files_are_served_from_the_package(api):
    page = api.get("/")
    assert page.status_code == 200 and '<svg id="board"' in page.text
    for asset in ("style.css", "board.js", "app.js"):
        response = api.get(f"/static/{asset}")
        assert response.status_code == 200 and len(response.text) > 500
    assert "http" not in page.text.replace("http://www.w3.org", "")  # no CDN


def test_agents_lists_the_built_in_players_rules_and_sizes(api):
    choices = api.get("/api/agents").json()
    assert choices["players"][0] == "human" and "random" in choices["players"]
    assert {"mcts", "alphazero", "heuristic"} <= set(choices["agent_names"])
    assert choices["rules"] == ["freestyle", "standard", "renju"]
    assert choices["sizes"] == {"min": 5, "max": 25}


def test_a_new_game_starts_empty_with_its_options(api):
    state = new_game(api, size=9, rule="renju", black="random", white="human")
    assert state["size"] == 9 and state["rule"] == "renju"
    assert state["players"] == {"black": "random", "white": "human"}
    assert state["humans"] == {"black": False, "white": True}
    assert state["over"] is False and state["result"] == "unfinished"
    assert api.get(f"/api/games/{state['id']}").json()["id"] == state["id"]
    listed = api.get("/api/games").json()["games"]
    assert state["id"] in [game["id"] for game in listed]


def test_moves_undo_resign_swap_and_new_game(api):
    game_id = two_people(api)["id"]
    state = command(api, game_id, type="move", point="d4", color="black").json()
    assert state["moves"] == ["d4"] and state["to_move"] == "white"
    state = command(api, game_id, type="move", point=0).json()  # an action index
    assert state["moves"] == ["d4", "a7"]
    assert command(api, game_id, type="undo").json()["moves"] == ["d4"]
    state = command(api, game_id, type="resign").json()
    assert state["over"] and state["result"] == "black" and state["reason"] == "resign"
    state = command(api, game_id, type="new").json()
    assert state["moves"] == [] and not state["over"]
    state = command(api, game_id, type="speed", delay=1.5).json()
    assert state["delay"] == 1.5


def test_swap_exchanges_the_players_and_starts_again(api):
    game_id = new_game(api, size=7, black="human", white="random", delay=0)["id"]
    state = command(api, game_id, type="swap").json()
    assert state["players"] == {"black": "random", "white": "human"}


def test_a_five_ends_the_game_with_its_winning_line(api):
    game_id = two_people(api)["id"]
    for black, white in zip(
        ["a1", "b1", "c1", "d1"], ["a7", "b7", "c7", "d7"], strict=True
    ):
        command(api, game_id, type="move", point=black)
        command(api, game_id, type="move", point=white)
    state = command(api, game_id, type="move", point="e1").json()
    assert state["over"] and state["result"] == "black" and state["reason"] == "five"
    assert state["winning_line"] == ["a1", "b1", "c1", "d1", "e1"]
    assert "wins by five in a row" in state["status"]


def test_the_record_reads_back_as_the_game(api):
    game_id = two_people(api)["id"]
    command(api, game_id, type="move", point="d4")
    command(api, game_id, type="move", point="e5")
    response = api.get(f"/api/games/{game_id}/record")
    assert response.headers["content-disposition"].startswith("attachment")
    record = GameRecord.from_text(response.text)
    assert record.config == GameConfig(7) and record.black == "human"
    assert len(record.moves) == 2 and record.result == "unfinished"


def test_an_uploaded_record_comes_back_as_moves():
    moves = (10, 19, 11, 20, 12, 21, 13, 22, 14)
    record = GameRecord(GameConfig(9), moves, "alice", "bob", "black", "five")
    with client() as api:
        data = api.post("/api/records", content=record.to_text(), headers=TEXT).json()
    assert data["size"] == 9 and data["players"] == {"black": "alice", "white": "bob"}
    assert data["moves"][:2] == ["b8", "b7"] and len(data["moves"]) == 9
    assert data["result"] == "black" and len(data["winning_line"]) == 5


def test_deleting_a_game_stops_its_agents(api):
    state = new_game(api, size=7, black="random", white="human")
    game_id = state["id"]
    room = api.app.state.registry.get(game_id)
    processes = [agent._process for agent in room.game.agents()]
    assert api.delete(f"/api/games/{game_id}").status_code == 204
    assert all(not process.is_alive() for process in processes)
    assert api.get(f"/api/games/{game_id}").status_code == 404


def test_games_beyond_the_cap_close_the_least_recently_used():
    with client(max_games=2) as api:
        first = two_people(api)["id"]
        second = two_people(api)["id"]
        api.get(f"/api/games/{first}")  # first is now the more recently used
        api.get("/api/games")  # listing the games uses none of them
        two_people(api)
        assert api.get(f"/api/games/{second}").status_code == 404
        assert api.get(f"/api/games/{first}").status_code == 200


def assert_refused(response, status, *words):
    """The request was refused with ``status`` and an error naming every word."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert all(word in message for word in words), message


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"size": 3}, ["board_size", "3"]),
        ({"size": "big"}, ["size", "'big'"]),
        ({"rule": "chess"}, ["chess"]),
        ({"black": "nobody"}, ["unknown agent", "nobody"]),
        ({"black": "mcts:simulations"}, ["simulations", "key=value"]),
        ({"white": "mcts:bogus=1"}, ["bogus"]),
        ({"white": ""}, ["human"]),
        ({"delay": -1}, ["delay", "-1"]),
        ({"colour": "red"}, ["colour"]),
    ],
)
def test_bad_new_game_options_are_refused_and_create_nothing(api, body, words):
    before = len(api.get("/api/games").json()["games"])
    assert_refused(api.post("/api/games", json=body), 400, *words)
    assert len(api.get("/api/games").json()["games"]) == before


@pytest.mark.parametrize("loopback", [False, True])
def test_program_specs_are_refused_unless_allowed(loopback):
    with client(allow_programs=False, loopback=loopback) as api:
        for spec in ["engine:/bin/sh", "python:os:getcwd"]:
            assert_refused(
                api.post("/api/games", json={"black": spec}), 400, "--allow-programs"
            )


@pytest.mark.parametrize(
    "spec",
    [
        "alphabeta:table_bits=34",
        "mcts:max_nodes=1000000000",
        "alphazero:threads=100000",
        "mcts:edges_per_node=600",
        "mcts:edges_per_node=none",
        "mcts:simulations=none",
        "alphabeta:vcf_plies=600",
        "alphabeta:leaf_vcf_plies=100",
    ],
)
def test_off_loopback_an_agent_cannot_ask_for_unbounded_resources(spec):
    with client(allow_programs=False) as api:
        key = spec.split(":")[1].split("=")[0]
        assert_refused(api.post("/api/games", json={"black": spec}), 400, f"{key} <=")
        assert api.get("/api/games").json()["games"] == []


def test_malformed_json_and_non_objects_are_refused(api):
    assert_refused(
        api.post("/api/games", content=b"{not json", headers=JSON), 400, "not valid"
    )
    assert_refused(api.post("/api/games", json=[1, 2]), 400, "JSON object")
    deep = b"[" * 30_000 + b"]" * 30_000  # a 500 with a traceback before
    assert_refused(
        api.post("/api/games", content=deep, headers=JSON), 400, "nested too deep"
    )
    digits = b'{"size": ' + b"9" * 5_000 + b"}"
    assert_refused(
        api.post("/api/games", content=digits, headers=JSON), 400, "not valid"
    )


def test_every_response_carries_the_security_headers(api):
    for response in (api.get("/"), api.get("/static/app.js"), api.get("/api/nothing")):
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"


def test_an_oversize_request_is_refused(api):
    game_id = two_people(api)["id"]
    big = b'{"type": "move", "point": "' + b"a" * MAX_REQUEST_BYTES + b'"}'
    assert_refused(
        api.post(f"/api/games/{game_id}/commands", content=big, headers=JSON),
        413,
        str(len(big)),
    )
    assert api.get(f"/api/games/{game_id}").json()["moves"] == []
    oversize = b"x" * (MAX_REQUEST_BYTES + 1)
    assert_refused(api.post("/api/records", content=oversize, headers=TEXT), 413)


def test_an_unknown_game_id_is_refused_everywhere(api):
    for response in (
        api.get("/api/games/nope"),
        api.delete("/api/games/nope"),
        api.get("/api/games/nope/record"),
        command(api, "nope", type="undo"),
    ):
        assert_refused(response, 404, "unknown game id", "nope")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"type": "move", "point": "d4"}, 409, ["d4", "not a legal move"]),
        ({"type": "move", "point": "z9"}, 400, ["z9"]),
        ({"type": "move", "point": 49}, 400, ["49"]),
        ({"type": "move", "point": None}, 400, ["point"]),
        ({"type": "move", "point": "c3", "color": "black"}, 409, ["out of turn"]),
        ({"type": "move", "point": "c3", "color": "green"}, 400, ["green"]),
        ({"type": "fly"}, 400, ["fly"]),
        ({"type": "speed", "delay": "fast"}, 400, ["delay", "fast"]),
    ],
)
def test_bad_commands_are_refused_and_change_nothing(api, body, status, words):
    game_id = two_people(api)["id"]
    command(api, game_id, type="move", point="d4")
    before = api.get(f"/api/games/{game_id}").json()
    assert_refused(command(api, game_id, **body), status, *words)
    assert api.get(f"/api/games/{game_id}").json() == before


def test_a_move_for_an_agent_is_out_of_turn(api):
    game_id = new_game(api, size=7, black="human", white="random", delay=3)["id"]
    state = command(api, game_id, type="move", point="d4").json()
    assert_refused(
        command(api, game_id, type="move", point="c3"), 409, "out of turn", "random"
    )
    assert api.get(f"/api/games/{game_id}").json()["moves"] == state["moves"]


def test_undo_and_resign_refused_when_there_is_nothing_to_do(api):
    game_id = two_people(api)["id"]
    assert_refused(command(api, game_id, type="undo"), 409, "nothing to undo")
    watch_id = new_game(api, size=7, black="random", white="random", delay=3)["id"]
    assert_refused(command(api, watch_id, type="resign"), 409, "no person can resign")


def test_a_malformed_record_upload_is_refused_naming_the_line(api):
    malformed = b"Rule: freestyle\nSize: x\n"
    assert_refused(
        api.post("/api/records", content=malformed, headers=TEXT), 400, "line"
    )
    assert_refused(
        api.post("/api/records", content=b"\xff\xfe\x00", headers=TEXT), 400, "UTF-8"
    )


def test_the_page_files_are_package_data():
    """A wheel carries the page: pyproject declares every file of static/."""
    from pathlib import Path

    import gomoku_apps.web

    tomllib = pytest.importorskip("tomllib", reason="tomllib is new in Python 3.11")

    root = Path(gomoku_apps.web.__file__).resolve().parents[2]
    settings = tomllib.loads((root / "pyproject.toml").read_text())
    assert settings["tool"]["setuptools"]["package-data"]["gomoku_apps.web"] == [
        "static/*"
    ]
    static = Path(gomoku_apps.web.__file__).with_name("static")
    assert {path.name for path in static.iterdir()} == {
        "index.html",
        "style.css",
        "board.js",
        "app.js",
    }


def test_a_new_game_sets_its_win_length(api):
    game_id = new_game(api, size=7, win_length=4, black="human", white="human")["id"]
    assert api.get(f"/api/games/{game_id}").json()["win_length"] == 4
    for black, white in zip(["a1", "b1", "c1"], ["a7", "b7", "c7"], strict=True):
        command(api, game_id, type="move", point=black)
        command(api, game_id, type="move", point=white)
    state = command(api, game_id, type="move", point="d1").json()
    assert state["over"] and state["winning_line"] == ["a1", "b1", "c1", "d1"]


def test_a_game_plays_on_from_an_opening(api):
    opening = ["d4", "e5", "c3"]
    state = new_game(api, size=7, black="human", white="human", opening=opening)
    assert state["moves"] == opening and state["to_move"] == "white"
    game_id = state["id"]
    state = command(api, game_id, type="move", point="a1", color="white").json()
    assert state["moves"] == [*opening, "a1"]
    assert command(api, game_id, type="new").json()["moves"] == opening
    swapped = command(api, game_id, type="swap").json()
    assert swapped["moves"] == opening and swapped["to_move"] == "white"


def test_an_agent_moves_after_the_opening(api):
    state = new_game(
        api, size=7, black="human", white="random", delay=0, opening=["d4"]
    )
    with api.websocket_connect(f"/api/games/{state['id']}/ws") as websocket:
        moved = wait_for(websocket, lambda state: len(state["moves"]) == 2)
    assert moved["moves"][0] == "d4" and moved["to_move"] == "black"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"win_length": 9, "size": 7}, ["win_length", "9"]),
        ({"win_length": "four"}, ["win_length", "'four'"]),
        ({"opening": "d4 e5"}, ["opening", "list"]),
        ({"opening": ["d4", 12]}, ["opening move 2", "12"]),
        ({"opening": ["d4", "z9"]}, ["opening move 2", "z9"]),
        ({"opening": ["d4", "e5", "d4"]}, ["opening move 3", "d4", "occupied"]),
        (
            {
                "size": 7,
                "win_length": 4,
                "opening": ["a1", "a7", "b1", "b7", "c1", "c7", "d1"],
            },
            ["opening move 7", "d1", "ends the game"],
        ),
        (
            {
                "rule": "renju",
                "opening": ["h8", "a1", "i8", "a2", "g9", "a3", "g10", "a4", "g8"],
            },
            ["opening move 9", "g8", "forbidden", "double_three"],
        ),
    ],
)
def test_bad_win_lengths_and_openings_are_refused(api, body, words):
    before = len(api.get("/api/games").json()["games"])
    assert_refused(api.post("/api/games", json={"white": "human", **body}), 400, *words)
    assert len(api.get("/api/games").json()["games"]) == before


def test_games_starting_at_once_are_bounded_by_max_games(monkeypatch):
    """40 concurrent creates with --max-games 4 started 90 agent processes: games
    counted only once their agents ran. Now at most max_games start at once; the
    rest are told to try again (429)."""
    import asyncio

    from gomoku_apps.web import registry as registry_module
    from gomoku_apps.web.registry import GameRegistry
    from gomoku_apps.web.requests import BusyError, GameOptions

    started = []

    async def slow_start(options):
        started.append(options)
        await asyncio.sleep(0.2)
        return {"black": None, "white": None}

    monkeypatch.setattr(registry_module, "_start_agents", slow_start)

    from gomoku_env import GameConfig

    options = GameOptions(GameConfig(9), "human", "human", None, 0.0, None)

    async def create_many():
        games = GameRegistry(max_games=4)
        results = await asyncio.gather(
            *(games.create(options) for _ in range(10)), return_exceptions=True
        )
        await games.close_all()
        return results

    results = asyncio.run(create_many())
    busy = [result for result in results if isinstance(result, BusyError)]
    assert len(started) == 4 and len(busy) == 6
    assert busy[0].status == 429 and "--max-games 4" in str(busy[0])
