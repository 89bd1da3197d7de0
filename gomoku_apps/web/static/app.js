// The page's behaviour: one game at a time over a websocket, a replay of a loaded
// record, and the new-game form. The server holds the game; this page only shows it
// and sends commands, so several tabs can watch the same game.
"use strict";

const page = {
  game: null,        // the last state message
  socket: null,
  insight: null,     // the agent's search: {heat, pv, value, text, colour}
  replay: null,      // {record, index} while a loaded record is shown
};

const $ = (id) => document.getElementById(id);

// The run's token, from the address that `gomoku serve` printed (?token=...): the
// server answers only requests that carry it (a header, or the query of the
// websocket and download URLs, which cannot carry headers).
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const withToken = (path) => `${path}?token=${encodeURIComponent(TOKEN)}`;

function showMessage(text) {
  $("message").textContent = text || "";
}

async function api(method, path, body, contentType = "application/json") {
  const options = { method, headers: { "X-Gomoku-Token": TOKEN } };
  if (body !== undefined) {
    options.body = contentType === "application/json" ? JSON.stringify(body) : body;
    options.headers["Content-Type"] = contentType;
  }
  const response = await fetch(path, options);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(data && data.error ? data.error : response.statusText);
  return data;
}

function send(command) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(command));
  } else {
    showMessage("not connected to the server");
  }
}

function redraw() {
  const svg = $("board");
  if (page.replay) {
    const { record, index } = page.replay;
    Board.draw(svg, {
      size: record.size,
      moves: record.moves.slice(0, index),
      winningLine: index === record.moves.length ? record.winning_line : [],
      showNumbers: $("numbers").checked,
      insight: null,
    });
    return;
  }
  const game = page.game;
  if (!game) return;
  Board.draw(svg, {
    size: game.size,
    moves: game.moves,
    winningLine: game.winning_line,
    showNumbers: $("numbers").checked,
    insight: $("overlay").checked ? page.insight : null,
  });
}

function showSearch() {
  const insight = $("overlay").checked && !page.replay ? page.insight : null;
  $("search").hidden = !insight;
  if (!insight) return;
  const value = insight.value;
  $("value-fill").style.width = value === null ? "50%" : `${(50 + 50 * value).toFixed(1)}%`;
  const valueText = value === null ? "" : ` · value ${value.toFixed(2)} for ${insight.colour}`;
  $("search-text").textContent = `${insight.colour}: ${insight.text}${valueText}`;
  $("search-pv").textContent = insight.pv.length ? `line: ${insight.pv.join(" ")}` : "";
}

function showGame() {
  const game = page.game;
  if (!game || page.replay) return;
  const status = $("status");
  status.textContent = game.status;
  status.classList.toggle("thinking", game.thinking);
  const personToMove = !game.over && game.to_move && game.humans[game.to_move];
  const anyPerson = game.humans.black || game.humans.white;
  $("undo").disabled = !anyPerson || game.moves.length === 0;
  $("resign").disabled = game.over || !anyPerson;
  $("save").href = withToken(`/api/games/${game.id}/record`);
  $("speed").value = game.delay;
  $("speed-value").textContent = `${game.delay.toFixed(1)} s`;
  $("board").classList.toggle("playable", Boolean(personToMove));
  redraw();
  showSearch();
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  if (message.type === "state") {
    const previous = page.game;
    const restarted = !previous || previous.id !== message.id
      || message.moves.length < previous.moves.length;
    if (restarted) page.insight = null;
    page.game = message;
    showGame();
  } else if (message.type === "search") {
    page.insight = message;
    page.insight.colour = message.color;
    redraw();
    showSearch();
  } else if (message.type === "error") {
    showMessage(message.message);
  } else if (message.type === "closed") {
    showMessage("this game was closed on the server; start a new one");
  }
}

function connect(gameId) {
  if (page.socket) page.socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${withToken(`/api/games/${gameId}/ws`)}`);
  page.socket = socket;
  socket.onmessage = onMessage;
  socket.onclose = () => {
    if (page.socket === socket) $("status").textContent = "Disconnected from the server";
  };
  history.replaceState(null, "", `#game=${gameId}`);
}

// A number field's value as a number, or as the text typed when it is not one (the
// server refuses it naming the value, and the page shows that message).
function numberField(id) {
  const text = $(id).value.trim();
  const value = Number(text);
  return text !== "" && Number.isFinite(value) ? value : text;
}

function formOptions() {
  return {
    size: numberField("size"),
    win_length: numberField("win-length"),
    rule: $("rule").value,
    black: $("black").value.trim(),
    white: $("white").value.trim(),
    delay: parseFloat($("speed").value),
  };
}

async function startGame(options) {
  $("start").disabled = true;
  $("status").textContent = "Starting the players…";
  try {
    const state = await api("POST", "/api/games", options);
    const old = page.game;
    page.game = null;
    page.insight = null;
    closeReplay();
    connect(state.id);
    if (old) api("DELETE", `/api/games/${old.id}`).catch(() => {});
    showMessage("");
  } catch (error) {
    showMessage(error.message);
    showGame();
  } finally {
    $("start").disabled = false;
  }
}

function openReplay(record) {
  page.replay = { record, index: record.moves.length };
  $("replay-slider").max = record.moves.length;
  $("game-controls").hidden = true;
  $("replay-controls").hidden = false;
  stepReplay(record.moves.length);
}

function stepReplay(index) {
  const replay = page.replay;
  replay.index = Math.max(0, Math.min(replay.record.moves.length, index));
  $("replay-slider").value = replay.index;
  const record = replay.record;
  const ending = replay.index === record.moves.length && record.result !== "unfinished"
    ? ` · ${record.result}${record.reason ? " by " + record.reason : ""}` : "";
  $("status").textContent =
    `Record: ${record.players.black} – ${record.players.white}, move ${replay.index} of ${record.moves.length}${ending}`;
  $("status").classList.remove("thinking");
  redraw();
  showSearch();
}

// A new game from the record's position at the move shown: the record's board and
// rule, its first moves as the opening, and the players chosen in the form.
function playFromReplay() {
  const { record, index } = page.replay;
  startGame({
    ...formOptions(),
    size: record.size,
    win_length: record.win_length,
    rule: record.rule,
    opening: record.moves.slice(0, index),
  });
}

function closeReplay() {
  page.replay = null;
  $("game-controls").hidden = false;
  $("replay-controls").hidden = true;
  showGame();
}

async function loadRecord(file) {
  try {
    const record = await api("POST", "/api/records", await file.text(), "text/plain");
    showMessage("");
    openReplay(record);
  } catch (error) {
    showMessage(`cannot load ${file.name}: ${error.message}`);
  }
}

function bindControls() {
  $("board").addEventListener("click", (event) => {
    if (page.replay || !page.game) return;
    const point = Board.pointAt($("board"), page.game.size, event.clientX, event.clientY);
    if (point) {
      showMessage("");
      send({ type: "move", point, color: page.game.to_move });
    }
  });
  for (const command of ["undo", "resign", "swap"]) {
    $(command).addEventListener("click", () => { showMessage(""); send({ type: command }); });
  }
  $("restart").addEventListener("click", () => { showMessage(""); send({ type: "new" }); });
  $("speed").addEventListener("input", () => {
    $("speed-value").textContent = `${parseFloat($("speed").value).toFixed(1)} s`;
  });
  $("speed").addEventListener("change", () => send({ type: "speed", delay: parseFloat($("speed").value) }));
  $("numbers").addEventListener("change", redraw);
  $("overlay").addEventListener("change", () => { redraw(); showSearch(); });
  $("new-game").addEventListener("submit", (event) => { event.preventDefault(); startGame(formOptions()); });
  $("load").addEventListener("change", () => {
    if ($("load").files.length) loadRecord($("load").files[0]);
    $("load").value = "";
  });
  $("replay-first").addEventListener("click", () => stepReplay(0));
  $("replay-back").addEventListener("click", () => stepReplay(page.replay.index - 1));
  $("replay-next").addEventListener("click", () => stepReplay(page.replay.index + 1));
  $("replay-last").addEventListener("click", () => stepReplay(page.replay.record.moves.length));
  $("replay-slider").addEventListener("input", () => stepReplay(parseInt($("replay-slider").value, 10)));
  $("replay-play").addEventListener("click", playFromReplay);
  $("replay-close").addEventListener("click", closeReplay);
  document.addEventListener("keydown", (event) => {
    if (!page.replay || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") stepReplay(page.replay.index - 1);
    if (event.key === "ArrowRight") stepReplay(page.replay.index + 1);
  });
}

async function fillChoices() {
  const choices = await api("GET", "/api/agents");
  for (const player of choices.players) {
    const option = document.createElement("option");
    option.value = player;
    $("players").appendChild(option);
  }
  for (const rule of choices.rules) {
    const option = document.createElement("option");
    option.value = option.textContent = rule;
    $("rule").appendChild(option);
  }
  $("size").min = choices.sizes.min;
  $("size").max = choices.sizes.max;
}

async function start() {
  bindControls();
  if (!TOKEN) {
    showMessage("open the address with ?token=… that gomoku serve printed");
    return;
  }
  await fillChoices();
  const match = location.hash.match(/game=([\w-]+)/);
  if (match) {
    try {
      await api("GET", `/api/games/${match[1]}`);
      connect(match[1]);
      return;
    } catch (error) {
      showMessage(`${error.message}: starting a new game`);
    }
  }
  startGame(formOptions());
}

// For tests and tools: where a point is drawn, in page pixels.
window.gomoku = {
  page,
  pointOnPage: (point) => Board.pointOnPage($("board"), (page.replay ? page.replay.record : page.game).size, point),
};

start();
