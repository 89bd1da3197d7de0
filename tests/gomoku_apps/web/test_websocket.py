"""The game websocket: states, search samples, commands, and refused messages."""

import json
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from starlette.websockets import WebSocketDisconnect

from gomoku_apps.web.requests import MAX_REQUEST_BYTES
from tests.gomoku_apps.web.helpers import TOKEN, new_game, wait_for


def test_a_game_against_random_is_played_to_its_end(api):
    game_id = new_game(api, size=7, black="human", white="random", seed=3)["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        state = websocket.receive_json()
        assert state["type"] == "state" and state["to_move"] == "black"
        for _ in range(25):
            if state["over"]:
                break
            free = [
                f"{column}{row}"
                for row in range(1, 8)
                for column in "abcdefg"
                if f"{column}{row}" not in state["moves"]
            ]
            count = len(state["moves"])
            websocket.send_json({"type": "move", "point": free[0], "color": "black"})
            state = wait_for(
                websocket,
                lambda s, count=count: (
                    s["over"] or (len(s["moves"]) == count + 2 and not s["thinking"])
                ),
            )
        assert state["over"] and state["result"] in ("black", "white", "draw")
        assert state["reason"] in ("five", "board_full")


def test_every_page_watching_a_game_sees_each_change(api):
    game_id = new_game(api, size=7, black="human", white="human")["id"]
    path = f"/api/games/{game_id}/ws"
    with api.websocket_connect(path) as first, api.websocket_connect(path) as second:
        first.receive_json(), second.receive_json()
        first.send_json({"type": "move", "point": "d4"})
        assert second.receive_json()["moves"] == ["d4"]
        assert first.receive_json()["moves"] == ["d4"]
        second.send_json({"type": "undo"})
        assert first.receive_json()["moves"] == []


@pytest.mark.timeout(900)  # the search kernels may compile first (a hang guard)
def test_watching_agents_streams_their_search(api):
    game_id = new_game(
        api, size=9, black="mcts:simulations=400", white="heuristic", delay=0, seed=1
    )["id"]
    searches = {}
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        for _ in range(200):
            message = websocket.receive_json()
            if message["type"] == "search" and message["final"]:
                searches.setdefault(message["color"], message)
            if len(searches) == 2:
                break
    mcts, heuristic = searches["black"], searches["white"]
    assert len(mcts["heat"]) == 81 and max(mcts["heat"]) == 1.0
    assert -1 <= mcts["value"] <= 1 and "400 simulations" in mcts["text"]
    assert mcts["pv"] and all(isinstance(point, str) for point in mcts["pv"])
    assert heuristic["pv"] and heuristic["value"] is None


def test_the_speed_command_changes_the_delay_between_agent_moves(api):
    game_id = new_game(api, size=7, black="random", white="random", delay=10)["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        websocket.send_json({"type": "speed", "delay": 0})
        state = wait_for(websocket, lambda s: len(s["moves"]) >= 3)
        assert state["delay"] == 0


def error_after(websocket, message):
    if isinstance(message, str):
        websocket.send_text(message)
    else:
        websocket.send_json(message)
    reply = websocket.receive_json()
    assert reply["type"] == "error", reply
    return reply


@pytest.mark.parametrize(
    ("message", "status", "words"),
    [
        ({"type": "move", "point": "d4"}, 409, ["d4", "not a legal move"]),
        ({"type": "move", "point": "q1"}, 400, ["q1"]),
        ({"type": "move", "point": "c3", "color": "black"}, 409, ["out of turn"]),
        ({"type": "dance"}, 400, ["dance"]),
        ("not json", 400, ["not valid JSON"]),
        ('"a string"', 400, ["JSON object"]),
        ("{" + " " * MAX_REQUEST_BYTES + "}", 413, ["limit"]),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(api, message, status, words):
    game_id = new_game(api, size=7, black="human", white="human")["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        websocket.send_json({"type": "move", "point": "d4"})
        before = websocket.receive_json()
        reply = error_after(websocket, message)
        assert reply["status"] == status
        assert all(word in reply["message"] for word in words), reply["message"]
        websocket.send_json({"type": "move", "point": "e5"})
        assert websocket.receive_json()["moves"] == [*before["moves"], "e5"]


def test_an_unknown_game_id_is_told_and_the_socket_closed(api):
    with api.websocket_connect("/api/games/nope/ws") as websocket:
        message = websocket.receive_json()
        assert message["type"] == "error" and "nope" in message["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_json()
        assert closed.value.code == 4404


def test_a_deleted_game_tells_its_pages(api):
    game_id = new_game(api, size=7, black="human", white="human")["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        api.delete(f"/api/games/{game_id}")
        assert websocket.receive_json() == {"type": "closed", "id": game_id}


def real_server_game(address: str) -> str:
    """Create a game of two people on a server of :func:`serve_in_background`; its id."""
    request = urllib.request.Request(
        address + "api/games",
        data=json.dumps({"black": "human", "white": "human"}).encode(),
        headers={"Content-Type": "application/json", "X-Gomoku-Token": TOKEN},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["id"]


def test_on_the_real_server_an_oversize_message_closes_the_socket():
    websockets = pytest.importorskip("websockets.sync.client")
    from gomoku_apps.web.server import serve_in_background

    with serve_in_background(token=TOKEN) as address:
        game_id = real_server_game(address)
        path = (
            address.replace("http", "ws", 1) + f"api/games/{game_id}/ws?token={TOKEN}"
        )
        with websockets.connect(path, max_size=None) as websocket:
            websocket.recv()
            websocket.send("{" + " " * MAX_REQUEST_BYTES + "}")
            with pytest.raises(Exception, match="1009"):
                websocket.recv()


def test_a_watcher_that_never_reads_keeps_only_the_newest_messages():
    """Five sockets that never read, and a new game every 0.3 s, grew the server by
    13 MB/s; each watcher's queue now holds the newest WATCHER_BACKLOG messages."""
    import asyncio

    from gomoku_apps.web.game import WebGame
    from gomoku_apps.web.requests import GameOptions
    from gomoku_apps.web.room import WATCHER_BACKLOG, GameRoom
    from gomoku_env import GameConfig

    async def flood():
        options = GameOptions(GameConfig(9), "human", "human", None, 0.0, None)
        room = GameRoom(WebGame("g", options, {"black": None, "white": None}))
        idle = room.watch()
        for number in range(10 * WATCHER_BACKLOG):
            room._publish({"type": "state", "number": number})
        kept = [idle.get_nowait()["number"] for _ in range(idle.qsize())]
        await room.close()
        return kept

    kept = asyncio.run(flood())
    assert kept == list(range(9 * WATCHER_BACKLOG, 10 * WATCHER_BACKLOG))
