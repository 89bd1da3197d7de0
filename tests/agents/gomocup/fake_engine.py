"""A tiny scripted Gomocup engine for the EngineAgent tests (standard library only).

Usage: python fake_engine.py MODE [SECONDS]. It plays (n, 0) as its n-th move of a game
and misbehaves by MODE:

- "refuse" answers START with ERROR; "die" exits with code 7 at START, saying why on
  stderr;
- "hang" never answers a move; "exit" dies on its second move;
- "chatty" writes MESSAGE and DEBUG lines before each move;
- "illegal" always answers 0,0; "offboard" answers 99,0; "noise" answers a move with
  text;
- "echo" repeats START and INFO lines as DEBUG lines;
- "busy" behaves like Rapfi 0.43 on a loaded machine: after writing a move it stays
  busy for SECONDS (default 0.05) and mangles whatever input came in meanwhile. Rapfi
  reads commands word by word and skips each word it reads while its ``thinking`` flag
  is still set, which it clears only after writing its move; the rest of the line is
  then read as a command of its own. So here every line that is waiting when the busy
  time ends (whenever it was sent) loses its first word: ``TURN 5,9`` becomes ``5,9``,
  answered ``ERROR Unknown command: 5,9``, and a one-word command such as ``BEGIN``,
  ``RESTART`` or ``ABOUT`` vanishes without an answer. It reports each loss in a
  MESSAGE line, which a manager collects as a note.

Input is read straight from file descriptor 0 into our own buffer, so "waiting input"
means exactly what was sent and not yet handled, with no hidden read-ahead.
"""

import os
import select
import sys
import time

mode = sys.argv[1]
busy_seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
pending = b""
at_end = False


def read_more(block):
    """Move what the pipe holds into ``pending``; wait for something if ``block``."""
    global pending, at_end
    while not at_end and (block or select.select([0], [], [], 0)[0]):
        chunk = os.read(0, 4096)
        if not chunk:
            at_end = True
        pending += chunk
        block = False


def next_line():
    """The next input line, or None at the end of input."""
    global pending
    while b"\n" not in pending:
        if at_end:
            return None
        read_more(block=True)
    line, _, pending = pending.partition(b"\n")
    return line.decode()


def write(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def be_busy():
    """Stay busy a while after a move, then drop the first word of each waiting line."""
    global pending
    time.sleep(busy_seconds)
    read_more(block=False)
    lines = pending.split(b"\n")
    kept = []
    for line in lines[:-1]:
        words = line.decode().split(None, 1)
        if words:
            write(f"MESSAGE busy: lost {words[0]!r} of {line.decode()!r}")
        if len(words) == 2:
            kept.append(words[1].encode())
    pending = b"".join(line + b"\n" for line in kept) + lines[-1]


moves = 0
while (line := next_line()) is not None:
    word = line.strip().split(" ")[0].upper()
    if mode == "echo" and word in ("START", "INFO"):
        write(f"DEBUG {line.strip()}")
    if word == "START":
        if mode == "die":
            sys.stderr.write("fake engine: no licence found\n")
            sys.exit(7)
        write("ERROR this fake refuses every game" if mode == "refuse" else "OK")
    elif word == "RESTART":
        moves = 0
        write("OK")
    elif word in ("BEGIN", "TURN", "DONE"):
        moves += 1
        if mode == "hang":
            time.sleep(3600)  # past pytest's timeout: a client that waits fails
        if mode == "exit" and moves == 2:
            sys.stderr.write("fake engine: out of cheese\n")
            sys.exit(3)
        if mode == "chatty":
            write(f"MESSAGE move {moves} coming")
            write("DEBUG depth 1")
        if mode == "illegal":
            write("0,0")
        elif mode == "offboard":
            write("99,0")
        elif mode == "noise":
            write("hello there")
        else:
            write(f"{moves},0")
        if mode == "busy":
            be_busy()
    elif word == "ABOUT":
        write('name="fake", version="0.1", author="tests"')
    elif word == "END":
        break
    elif word in ("INFO", "BOARD") or word.count(",") == 2:
        pass  # settings and the stones of a BOARD block need no answer
    elif word:
        write(f"ERROR Unknown command: {line.strip()}")
