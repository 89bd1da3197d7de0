"""Agents that crash, exit, hang or cheat end their own game, with the reason shown;
the server and its other games go on."""

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from tests.gomoku_apps.web.helpers import client, failing_spec, new_game, wait_for

MOVE_TIME = 1.0


@pytest.fixture(scope="module")
def api():
    with client(move_time=MOVE_TIME) as test_client:
        yield test_client


def forfeit_state(api, agent, person_moves_first=True):
    black, white = ("human", agent) if person_moves_first else (agent, "human")
    game_id = new_game(api, size=7, black=black, white=white, delay=0)["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        websocket.receive_json()
        if person_moves_first:
            websocket.send_json({"type": "move", "point": "d4"})
        return game_id, wait_for(websocket, lambda state: state["over"])


@pytest.mark.parametrize(
    ("agent", "reason", "words"),
    [
        ("Crasher", "crash", ["RuntimeError", "boom in act"]),
        ("Exiter", "crash", ["exited", "code 3"]),
        ("Illegal", "illegal_move", ["-1", "not a legal action"]),
        ("Sleeper", "timeout", [f"{MOVE_TIME} s"]),
        ("Deaf", "timeout", [f"no move within {MOVE_TIME} s"]),
    ],
)
def test_a_failing_agent_forfeits_with_the_reason_shown(api, agent, reason, words):
    game_id, state = forfeit_state(api, failing_spec(agent))
    assert state["result"] == "black" and state["reason"] == reason
    assert "white" in state["status"] and "forfeits" in state["status"]
    assert all(word in state["status"] for word in words), state["status"]
    record = api.get(f"/api/games/{game_id}/record").text
    assert "Result: black" in record and f"Reason: {reason}" in record


def test_a_killed_agent_leaves_no_process_and_a_new_game_restarts_it(api):
    game_id, _ = forfeit_state(api, failing_spec("Deaf"))
    room = api.app.state.registry.get(game_id)
    (agent,) = room.game.agents()
    assert not agent._process.is_alive()
    state = api.post(f"/api/games/{game_id}/commands", json={"type": "new"}).json()
    assert not state["over"] and agent.alive


def test_undo_after_a_forfeit_is_refused(api):
    game_id, _ = forfeit_state(api, failing_spec("Crasher"))
    response = api.post(f"/api/games/{game_id}/commands", json={"type": "undo"})
    assert response.status_code == 409 and "forfeit" in response.json()["error"]


def test_other_games_go_on_while_one_agent_hangs(api):
    hung = new_game(api, size=7, black=failing_spec("Deaf"), white="human", delay=0)
    game_id = new_game(api, size=7, black="random", white="random", delay=0)["id"]
    with api.websocket_connect(f"/api/games/{game_id}/ws") as websocket:
        state = wait_for(websocket, lambda s: s["over"])
    assert state["reason"] in ("five", "board_full")
    with api.websocket_connect(f"/api/games/{hung['id']}/ws") as websocket:
        assert wait_for(websocket, lambda s: s["over"])["reason"] == "timeout"


def test_a_spec_that_fails_to_build_is_refused():
    with client() as api:
        response = api.post("/api/games", json={"black": "python:/no/such/file.py:x"})
    assert (
        response.status_code == 400 and "/no/such/file.py" in response.json()["error"]
    )
