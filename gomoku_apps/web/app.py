"""The web application: the page's files, the JSON API and the game websocket.

Endpoints (all JSON unless said; docs/web.md has the full reference):

========================================  ==============================================
``GET /``                                 the page (``/static/...``: its CSS and JS)
``GET /api/agents``                       built-in players, rules and board sizes
``GET /api/games``                        the games' ids and status lines
``POST /api/games``                       a new game (options in the body); 201
``GET /api/games/{id}``                   the game's state
``DELETE /api/games/{id}``                close the game and its agents; 204
``POST /api/games/{id}/commands``         move, undo, resign, swap, new, speed
``GET /api/games/{id}/record``            the game record (text, as ``gomoku play``)
``POST /api/records``                     read a record (text body): its moves
``WS /api/games/{id}/ws``                 state and search messages; commands in
========================================  ==============================================

A refused request answers ``{"error": message}`` with its status (400 malformed, 403
not from the page of this run (:mod:`gomoku_apps.web.guard`: Host, token, Origin), 404
unknown game, 409 not allowed now, 413 too large, 415 not JSON) and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Coroutine
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from agents.specs.parse import registered_names
from gomoku_apps.gui.session import HUMAN
from gomoku_apps.web import requests as parse
from gomoku_apps.web.guard import Access, AccessGuard
from gomoku_apps.web.registry import DEFAULT_MAX_GAMES, GameRegistry
from gomoku_apps.web.requests import RequestError, SpecPolicy, TooLargeError
from gomoku_apps.web.room import GameRoom, Message
from gomoku_env.config import MAX_BOARD_SIZE, MIN_BOARD_SIZE, Rule
from gomoku_env.notation import action_to_notation
from gomoku_env.records import GameRecord

STATIC = Path(str(resources.files("gomoku_apps.web") / "static"))
BUILT_IN_PLAYERS = (
    HUMAN,
    "random",
    "heuristic",
    "alphabeta:time=1",
    "mcts:simulations=2000",
    "mcts:time=2",
    "alphazero:simulations=200",
)
"""The players the page offers in its lists (any other spec can be typed in)."""
WEBSOCKET_CLOSE_UNKNOWN_GAME = 4404
WEBSOCKET_CLOSE_UNSUPPORTED = 1003
"""The close code for a binary message (the game's messages are JSON text)."""


async def read_body(request: Request) -> bytes:
    """The request body, refused as soon as it passes the size limit."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > parse.MAX_REQUEST_BYTES:
        raise TooLargeError(
            f"request of {declared} bytes is over the limit of "
            f"{parse.MAX_REQUEST_BYTES}"
        )
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > parse.MAX_REQUEST_BYTES:
            raise TooLargeError(
                f"request body is over the limit of {parse.MAX_REQUEST_BYTES} bytes"
            )
    return body


def record_json(record: GameRecord) -> dict:
    """A game record as the page's replay view reads it."""
    size = record.config.board_size
    return {
        "size": size,
        "win_length": record.config.win_length,
        "rule": record.config.rule.value,
        "players": {"black": record.black, "white": record.white},
        "result": record.result,
        "reason": record.reason,
        "date": record.date,
        "moves": [action_to_notation(move, size) for move in record.moves],
        "winning_line": [
            action_to_notation(cell, size) for cell in record.board().winning_line()
        ],
    }


class WebApi:
    """The request handlers, over one :class:`GameRegistry`."""

    def __init__(
        self, registry: GameRegistry, policy: SpecPolicy, move_time: float | None
    ) -> None:
        self.registry = registry
        self.policy = policy
        self.move_time = move_time

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def players(self, request: Request) -> Response:
        return JSONResponse(
            {
                "players": list(BUILT_IN_PLAYERS),
                "agent_names": registered_names(),
                "rules": [rule.value for rule in Rule],
                "sizes": {"min": MIN_BOARD_SIZE, "max": MAX_BOARD_SIZE},
                "allow_programs": self.policy.allow_programs,
            }
        )

    async def list_games(self, request: Request) -> Response:
        rooms = self.registry.rooms()
        games = [
            {"id": room.game.id, "status": room.state()["status"]} for room in rooms
        ]
        return JSONResponse({"games": games})

    async def create_game(self, request: Request) -> Response:
        data = parse.decode_json(await read_body(request))
        options = parse.game_options(data, self.policy, self.move_time)
        room = await self.registry.create(options)
        return JSONResponse(room.state(), status_code=201)

    async def game(self, request: Request) -> Response:
        return JSONResponse(self.registry.get(request.path_params["id"]).state())

    async def delete_game(self, request: Request) -> Response:
        await self.registry.delete(request.path_params["id"])
        return Response(status_code=204)

    async def command(self, request: Request) -> Response:
        room = self.registry.get(request.path_params["id"])
        data = parse.decode_json(await read_body(request))
        return JSONResponse(await room.apply(parse.command(data, room.game.size)))

    async def record(self, request: Request) -> Response:
        room = self.registry.get(request.path_params["id"])
        now = datetime.now(timezone.utc)
        text = room.game.record(date=now.isoformat(timespec="seconds")).to_text()
        filename = f"gomoku-{now:%Y%m%d-%H%M%S}.txt"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return PlainTextResponse(text, headers=headers)

    async def read_record(self, request: Request) -> Response:
        body = await read_body(request)
        try:
            record = GameRecord.from_text(body.decode("utf-8"), source="upload")
        except UnicodeDecodeError as error:
            raise RequestError(f"the record is not UTF-8 text: {error}") from None
        except ValueError as error:
            raise RequestError(str(error)) from None
        return JSONResponse(record_json(record))

    async def websocket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            room = self.registry.get(websocket.path_params["id"])
        except RequestError as error:
            await websocket.send_json({"type": "error", "message": str(error)})
            await websocket.close(WEBSOCKET_CLOSE_UNKNOWN_GAME)
            return
        queue = room.watch()
        sender = _forward(queue, websocket)
        await websocket.send_json(room.state())
        try:
            async with _running(sender):
                while True:
                    message = await websocket.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    if message.get("text") is None:
                        await _refuse_binary(websocket)
                        return
                    await self._message(room, message["text"], websocket)
        except (WebSocketDisconnect, RuntimeError):
            pass  # the page left, or the game closed and its socket with it
        finally:
            room.unwatch(queue)

    async def _message(self, room: GameRoom, text: str, websocket: WebSocket) -> None:
        """Carry out one websocket command; a refusal goes to this sender only."""
        try:
            data = parse.decode_json(text)
            self.registry.get(room.game.id)
            await room.apply(parse.command(data, room.game.size))
        except RequestError as error:
            await websocket.send_json(
                {"type": "error", "status": error.status, "message": str(error)}
            )


async def _refuse_binary(websocket: WebSocket) -> None:
    """Answer a binary message with an error and close with 1003 (unsupported)."""
    message = "binary messages are not accepted: send commands as JSON text"
    await websocket.send_json({"type": "error", "status": 400, "message": message})
    await websocket.close(WEBSOCKET_CLOSE_UNSUPPORTED, reason="binary message")


async def _forward(queue: asyncio.Queue[Message], websocket: WebSocket) -> None:
    """Send every message about the game to this page, until it leaves."""
    while True:
        message = await queue.get()
        await websocket.send_text(json.dumps(message))
        if message["type"] == "closed":
            await websocket.close()
            return


@contextlib.asynccontextmanager
async def _running(coroutine: Coroutine) -> AsyncIterator[None]:
    """Run ``coroutine`` as a task for the duration of the block."""
    task = asyncio.get_running_loop().create_task(coroutine)
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def _refused(request: Request, error: Exception) -> Response:
    status = getattr(error, "status", 400)
    return JSONResponse({"error": str(error)}, status_code=status)


def create_app(
    access: Access,
    max_games: int = DEFAULT_MAX_GAMES,
    allow_programs: bool = False,
    move_time: float | None = parse.DEFAULT_MOVE_TIME_S,
    weights_dir: Path | None = None,
    loopback: bool = False,
) -> Starlette:
    """The Starlette application of ``gomoku serve``.

    Args:
        access: the token and Host addresses every request must show (see
            :mod:`gomoku_apps.web.guard`).
        max_games: games kept at once (the least recently used closes beyond).
        allow_programs: accept ``python:`` and ``engine:`` specs, which run code
            named by the request (``gomoku serve --allow-programs``), and weights
            files anywhere.
        move_time: seconds an agent may take per move; a slower one forfeits.
        weights_dir: without ``allow_programs`` or ``loopback``, the folder whose
            files a ``weights`` option may name (besides the bundled networks).
        loopback: the server is reachable from this machine only: a page's agents
            may be as large as they ask and read weights files anywhere.
    """
    registry = GameRegistry(max_games)
    api = WebApi(registry, SpecPolicy(allow_programs, weights_dir, loopback), move_time)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await registry.close_all()

    routes = [
        Route("/", api.page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/agents", api.players),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/games", api.create_game, methods=["POST"]),
        Route("/api/games/{id}", api.game, methods=["GET"]),
        Route("/api/games/{id}", api.delete_game, methods=["DELETE"]),
        Route("/api/games/{id}/commands", api.command, methods=["POST"]),
        Route("/api/games/{id}/record", api.record),
        Route("/api/records", api.read_record, methods=["POST"]),
        WebSocketRoute("/api/games/{id}/ws", api.websocket),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(AccessGuard, access=access)],
        lifespan=lifespan,
        exception_handlers={RequestError: _refused},
    )
    app.state.registry = registry
    app.state.access = access
    return app
