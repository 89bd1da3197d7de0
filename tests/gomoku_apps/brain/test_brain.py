"""The brain state machine in-process: a transcript of every command, bad input."""

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import RandomAgent
from agents.base import legal_actions
from agents.gomocup.protocol import MANAGER_COMMANDS, format_point, parse_point
from gomoku_apps.brain.brain import Brain, run_brain
from gomoku_env.config import GameConfig

ABOUT = {"name": "test brain", "version": "1"}


class FirstLegalAgent:
    """Plays the lowest legal action: makes transcripts exact. Records its resets."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.resets = 0

    def reset(self, seed=None):
        self.resets += 1

    def act(self, observation):
        return int(legal_actions(observation)[0])


def make_brain(factory=FirstLegalAgent):
    return Brain(factory, ABOUT)


def talk(brain, lines):
    return [brain.handle(line) for line in lines]


def test_transcript_of_every_command():
    brain = make_brain()
    script = [
        ("ABOUT", ['name="test brain", version="1"']),
        ("START 15", ["OK"]),
        ("INFO timeout_turn 5000", []),
        ("INFO timeout_match 100000", []),
        ("INFO time_left 90000", []),
        ("INFO max_memory 83886080", []),
        ("INFO game_type 1", []),
        ("INFO rule 1", []),
        ("INFO folder /tmp/brain files", []),
        ("INFO evaluate 3,3", []),
        ("BEGIN", ["0,0"]),
        ("TURN 7,7", ["1,0"]),
        ("TAKEBACK 1,0", ["OK"]),
        ("TAKEBACK 7,7", ["OK"]),
        ("TURN 2,0", ["1,0"]),
        ("RESTART", ["OK"]),
        ("BOARD", []),
        ("0,0,2", []),
        ("14,14,1", []),
        ("1,0,2", []),
        ("DONE", ["2,0"]),
        ("RECTSTART 20,20", ["OK"]),
        ("TURN 0,0", ["1,0"]),
        ("END", []),
    ]
    for line, expected in script:
        assert brain.handle(line) == expected, line
    assert brain.finished
    assert brain.clock.turn_ms == 5000 and brain.clock.time_left_ms == 90000
    assert brain.info == {
        "max_memory": "83886080",
        "game_type": "1",
        "folder": "/tmp/brain files",
    }
    assert brain.board.config == GameConfig(board_size=20, rule="standard")
    assert brain.board.moves == [0, 1]


def test_board_block_sets_colours_and_last_move():
    brain = make_brain()
    brain.handle("START 15")
    for line in ["BOARD", "7,7,2", "8,7,1", "7,8,2", "DONE"]:
        answer = brain.handle(line)
    assert answer == ["0,0"]
    board = brain.board
    # The opponent has one more stone, so it is black and the brain white.
    assert board.cells[parse_point("7,7", 15)] == 1
    assert board.cells[parse_point("8,7", 15)] == 2
    assert board.moves[-2:] == [parse_point("7,8", 15), 0]


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (["7,7,1", "7,7,2"], "twice"),
        (["7,7,1", "8,8,1"], "2 own and 0 opponent"),
        (["7,7,1", "x,y,z"], "BOARD line needs"),
        (["7,7,3"], "field must be 1"),
        (
            [f"{x},0,2" for x in range(5)] + [f"{x},5,1" for x in range(5)],
            "already won",
        ),
    ],
)
def test_bad_board_blocks_are_refused_and_change_nothing(block, message):
    brain = make_brain()
    brain.handle("START 15")
    brain.handle("BEGIN")
    answers = talk(brain, ["BOARD", *block, "DONE"])
    assert answers[:-1] == [[]] * (len(block) + 1)
    assert len(answers[-1]) == 1 and answers[-1][0].startswith("ERROR")
    assert message in answers[-1][0]
    assert brain.board.moves == [0]


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (["BEGIN"], "ERROR no game"),
        (["START 4"], "ERROR unsupported game: board_size must be between 5 and 25"),
        (["START 26"], "ERROR unsupported game"),
        (["START fifteen"], "ERROR START board size must be an integer"),
        (["RECTSTART 20,15"], "ERROR only square boards"),
        (["START 15", "BEGIN", "BEGIN"], "ERROR BEGIN on a board with 1 stones"),
        (["START 15", "TURN 15,0"], "ERROR point 15,0 is off the 15x15 board"),
        (["START 15", "BEGIN", "TURN 0,0"], "ERROR TURN 0,0: action 0 is occupied"),
        (["START 15", "TAKEBACK 0,0"], "ERROR TAKEBACK 0,0: only the last move (none)"),
        (["START 15", "RESTART now"], "ERROR unexpected argument 'now'"),
        (["START 15", "INFO timeout_turn soon"], "ERROR INFO timeout_turn must be"),
        (["START 15", "DONE"], "UNKNOWN command 'DONE'"),
        (["START 15", "SWAP2BOARD"], "UNKNOWN command 'SWAP2BOARD'"),
        (["INFO rule 2", "START 15"], "ERROR unsupported rule 2"),
        (["START 15", "INFO rule 8", "BEGIN"], "ERROR unsupported rule 8"),
    ],
)
def test_bad_commands_get_one_clear_answer(lines, answer):
    brain = make_brain()
    answers = talk(brain, lines)
    assert len(answers[-1]) == 1
    assert answers[-1][0].startswith(answer)


@pytest.mark.parametrize(("rule", "move"), [("0", "0,0"), ("4", "4,0")])
def test_under_renju_the_brain_never_plays_a_forbidden_point(rule, move):
    # Black (the brain) has 1,0 2,0 3,0 and 0,1 0,2 0,3: 0,0 is a double four.
    own = [f"{x},0,1" for x in (1, 2, 3)] + [f"0,{y},1" for y in (1, 2, 3)]
    far = ["14,14", "13,14", "12,14", "14,12", "10,14", "14,10"]
    block = own + [f"{point},2" for point in far]
    lines = ["START 15", f"INFO rule {rule}", "BOARD", *block, "DONE"]
    answers = talk(make_brain(), lines)
    assert answers[1] == []
    assert answers[-1] == [move]


def test_a_supported_rule_lifts_a_refusal_and_rebuilds_the_agent():
    configs = []

    def factory(config):
        configs.append(config)
        return FirstLegalAgent(config)

    brain = make_brain(factory)
    assert talk(brain, ["START 15", "BEGIN", "INFO rule 2"])[-1][0].startswith("ERROR")
    assert brain.handle("TURN 5,5")[0].startswith("ERROR unsupported rule 2")
    assert brain.handle("INFO rule 1") == []
    assert brain.handle("TURN 5,5") == ["1,0"]
    assert [config.rule.value for config in configs] == ["freestyle", "standard"]
    assert brain.board.config.rule.value == "standard"
    assert brain.board.moves == [0, parse_point("5,5", 15), 1]


def test_an_agent_that_cannot_play_the_size_is_refused_at_start():
    def factory(config):
        if config.board_size != 9:
            raise ValueError(f"no weights for {config.board_size}x{config.board_size}")
        return FirstLegalAgent(config)

    brain = make_brain(factory)
    assert brain.handle("START 15") == [
        "ERROR the agent cannot play this game: no weights for 15x15"
    ]
    assert brain.handle("START 9") == ["OK"]
    assert brain.handle("START 15")[0].startswith("ERROR")
    assert brain.board.size == 9  # a refused START leaves the game as it was


def test_an_agent_that_crashes_while_being_built_is_an_error_not_a_crash():
    def factory(config):
        raise OSError("weights file missing")

    brain = make_brain(factory)
    assert brain.handle("START 15") == [
        "ERROR the agent cannot play this game: weights file missing"
    ]
    assert brain.handle("BEGIN") == ["ERROR no game: START has not succeeded yet"]


def test_a_failing_agent_is_reported_and_the_brain_goes_on():
    class Broken(FirstLegalAgent):
        def act(self, observation):
            raise RuntimeError("out of ideas")

    brain = make_brain(Broken)
    assert brain.handle("START 15") == ["OK"]  # a failed warm-up refuses nothing
    assert brain.handle("TURN 3,3") == [
        "ERROR agent failed: RuntimeError: out of ideas"
    ]
    assert brain.handle("ABOUT") == ['name="test brain", version="1"']
    assert brain.board.moves == [parse_point("3,3", 15)]


def test_a_won_game_is_not_played_on():
    brain = make_brain()
    brain.handle("START 15")
    for x in range(4):
        assert brain.handle(f"TURN {x},5") == [f"{x},0"]
    assert brain.handle("TURN 4,5") == [
        "ERROR the game is over: there is no move to make"
    ]


def test_run_brain_answers_line_by_line_until_end():
    commands = io.StringIO("START 9\r\nBEGIN\r\n\r\nEND\r\nABOUT\r\n")
    answers = io.StringIO()
    run_brain(make_brain(), commands, answers)
    assert answers.getvalue() == "OK\n0,0\n"


# Malformed lines: text whose first word is no command, and commands with bad arguments.
_junk_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
    max_size=40,
).filter(
    lambda text: (
        text.strip() and text.strip().split(" ")[0].upper() not in MANAGER_COMMANDS
    )
)
_bad_arguments = st.one_of(
    st.text(alphabet="0123456789,-x ", max_size=8),
    st.tuples(st.integers(-3, 40), st.integers(-3, 40)).map(lambda p: f"{p[0]},{p[1]}"),
)
_malformed = st.one_of(
    _junk_text,
    st.builds(
        lambda word, arg: f"{word} {arg}",
        st.sampled_from(["TURN", "TAKEBACK"]),
        _bad_arguments,
    ),
    st.builds(
        lambda arg: f"START {arg}", st.text(alphabet="abc-.x ", min_size=1, max_size=5)
    ),
    st.builds(
        lambda word: f"{word} extra", st.sampled_from(["BEGIN", "RESTART", "BOARD"])
    ),
    st.builds(
        lambda key, value: f"INFO {key} {value}",
        st.sampled_from(["timeout_turn", "time_left", "rule"]),
        st.text(alphabet="xyz.", min_size=1, max_size=4),
    ),
    st.just("DONE"),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_malformed_lines_never_crash_or_desynchronise(data):
    size = 9
    brain = Brain(lambda config: RandomAgent(seed=0), ABOUT)
    assert brain.handle("START 9") == ["OK"]
    moves: list[int] = []
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(1, 25))):
        if data.draw(st.booleans()):
            line = data.draw(_malformed)
            answers = brain.handle(line)
            valid_turn = answers and not answers[0].startswith(("ERROR", "UNKNOWN"))
            if line.startswith("TURN") and valid_turn:
                moves += [parse_point(line[5:], size), parse_point(answers[0], size)]
            elif line.startswith("TAKEBACK") and answers == ["OK"]:
                moves.pop()
            else:
                assert len(answers) == 1, (line, answers)
                assert answers[0].split(" ")[0] in ("ERROR", "UNKNOWN"), (line, answers)
        elif not brain.board.is_over:
            free = np.setdiff1d(np.arange(size * size), moves)
            point = int(rng.choice(free))
            answers = brain.handle(f"TURN {format_point(point, size)}")
            moves.append(point)
            assert len(answers) == 1
            if not answers[0].startswith("ERROR"):
                moves.append(parse_point(answers[0], size))
        assert brain.board.moves == moves


@pytest.mark.parametrize("error", [SystemExit(3), KeyboardInterrupt()])
def test_an_agent_raising_system_exit_is_an_agent_failure(error):
    class Quitting(FirstLegalAgent):
        def act(self, observation):
            raise error

    brain = make_brain(Quitting)
    brain.handle("START 15")
    answer = brain.handle("TURN 3,3")
    assert answer == [f"ERROR agent failed: {type(error).__name__}: {error}"]
    assert brain.handle("ABOUT") == ['name="test brain", version="1"']


def test_an_agent_answering_a_bool_is_refused_not_printed():
    class Yes(FirstLegalAgent):
        def act(self, observation):
            return True

    brain = make_brain(Yes)
    brain.handle("START 15")
    assert brain.handle("TURN 3,3") == ["ERROR agent chose an illegal move: True"]


@pytest.mark.parametrize("key", ["timeout_turn", "timeout_match"])
def test_a_negative_time_limit_is_an_error_and_changes_nothing(key):
    brain = make_brain()
    assert brain.handle(f"INFO {key} 5000") == []
    assert brain.handle(f"INFO {key} -1") == [
        f"ERROR INFO {key} must be >= 0 milliseconds, got -1"
    ]
    assert brain.clock.turn_ms == (5000 if key == "timeout_turn" else None)
    assert brain.clock.match_ms == (5000 if key == "timeout_match" else None)


def test_the_agent_is_warmed_up_before_start_is_answered():
    class Counting(FirstLegalAgent):
        acts = 0

        def act(self, observation):
            Counting.acts += 1
            return super().act(observation)

    brain = make_brain(Counting)
    assert brain.handle("START 15") == ["OK"]
    assert Counting.acts == 1 and brain.agent.resets == 1
    assert brain.handle("BEGIN") == ["0,0"]


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        (
            "INFO timeout_turn 99999999999999999999",
            "ERROR INFO timeout_turn 99999999999999999999 is out of range: at most "
            "2147483647 milliseconds",
        ),
        (
            "INFO time_left -2147483648",
            "ERROR INFO time_left -2147483648 is out of range: at least -2147483647 "
            "milliseconds",
        ),
        (
            "INFO rule 1" + "0" * 5000,
            "ERROR INFO rule 1" + "0" * 29 + "... is out of range: at most 2147483647",
        ),
        ("INFO timeout_match 2.5", "ERROR INFO timeout_match must be a whole number"),
    ],
)
def test_info_numbers_out_of_range_say_so_and_change_nothing(line, answer):
    brain = make_brain()
    assert brain.handle("INFO timeout_turn 5000") == []
    (reply,) = brain.handle(line)
    assert reply.startswith(answer) and len(reply) < 200
    assert brain.clock.turn_ms == 5000 and brain.clock.match_ms is None
    assert brain.handle("INFO timeout_turn 2147483647") == []
    assert brain.clock.turn_ms == 2147483647


def test_huge_inputs_cost_little_and_get_short_answers():
    """A BOARD block longer than the board is dropped as it is read (it held 300,000
    lines and checked them for repeats in quadratic time) and refused at its DONE;
    answers quote at most a few hundred characters of a line (a 5 MB line got a
    5 MB answer)."""
    import time

    brain = make_brain()
    brain.handle("START 15")
    brain.handle("BOARD")
    answers = [brain.handle("7,7,1") for _ in range(300)]
    assert answers == [[]] * 300 and brain._block is None
    (refusal,) = brain.handle("DONE")
    assert refusal.startswith("ERROR BOARD lists more than the board's 225")
    brain.handle("BOARD")
    started = time.process_time()
    for x in range(15):
        for y in range(15):
            brain.handle(f"{x},{y},{1 + (x + y) % 2}")
    answer = brain.handle("DONE")
    assert time.process_time() - started < 5  # generous: counted, not raced
    assert len(answer) == 1 and len(answer[0]) < 400
    (unknown,) = brain.handle("X" * 5_000_000)
    assert unknown.startswith("UNKNOWN") and len(unknown) < 200
    (error,) = brain.handle("TURN " + "9" * 5_000_000)
    assert error.startswith("ERROR") and len(error) < 400


BLOCK_FLOOD = 150_000


def test_a_board_block_far_longer_than_the_board_is_read_to_done_then_refused():
    """A 150,000-line BOARD block was refused at line 82 and its other lines were
    answered one by one as commands: a manager that writes the whole block before
    reading blocked for ever on a brain blocked on its full output. The brain now
    reads the block to DONE, keeping none of it, and answers once."""
    brain = make_brain()
    brain.handle("START 9")
    commands = io.StringIO("BOARD\n" + "1,1,1\n" * BLOCK_FLOOD + "DONE\nBEGIN\nEND\n")
    answers = io.StringIO()
    run_brain(brain, commands, answers)
    lines = answers.getvalue().splitlines()
    assert len(lines) == 2, lines[:5]
    assert lines[0].startswith("ERROR BOARD lists more than the board's 81 points")
    assert lines[1] == "4,4" or "," in lines[1]  # BEGIN is heard as a command again


def test_an_endless_command_line_is_read_in_bounded_memory():
    """A line without end was read whole (readline) before being refused."""
    import tracemalloc

    commands = io.StringIO("START 9\n" + "X" * 20_000_000 + "\nEND\n")
    answers = io.StringIO()
    tracemalloc.start()
    try:
        run_brain(make_brain(), commands, answers)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    lines = answers.getvalue().splitlines()
    assert lines[0] == "OK" and lines[1].startswith("UNKNOWN") and len(lines) == 2
    assert peak < 5_000_000, f"{peak / 1e6:.0f} MB"
