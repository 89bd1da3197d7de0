"""A tiny scripted Gomocup engine for the EngineAgent tests (no imports but sys, time).

Usage: python fake_engine.py MODE. It plays (n, 0) as its n-th move of a game, and
misbehaves by MODE: "refuse" answers START with ERROR, "hang" never answers a move,
"exit" dies on its second move, "chatty" writes MESSAGE and DEBUG lines before each
move, "illegal" always answers 0,0, "noise" answers a move with text, and "echo"
repeats START and INFO lines as DEBUG lines.
"""

import sys
import time

mode = sys.argv[1]
moves = 0
for line in sys.stdin:
    word = line.strip().split(" ")[0].upper()
    if mode == "echo" and word in ("START", "INFO"):
        print(f"DEBUG {line.strip()}")
    if word == "START":
        print("ERROR this fake refuses every game" if mode == "refuse" else "OK")
    elif word == "RESTART":
        moves = 0
        print("OK")
    elif word in ("BEGIN", "TURN", "DONE"):
        moves += 1
        if mode == "hang":
            time.sleep(60)
        if mode == "exit" and moves == 2:
            sys.stderr.write("fake engine: out of cheese\n")
            sys.exit(3)
        if mode == "chatty":
            print(f"MESSAGE move {moves} coming")
            print("DEBUG depth 1")
        if mode == "illegal":
            print("0,0")
        elif mode == "noise":
            print("hello there")
        else:
            print(f"{moves},0")
    elif word == "ABOUT":
        print('name="fake", version="0.1", author="tests"')
    elif word == "END":
        break
    sys.stdout.flush()
