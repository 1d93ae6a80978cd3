"""ply_games.checkers: the Deepomatic challenge's API (allowed_moves, play) as the harness
uses it (`import ply_games.checkers as ai`)."""

import json
import os
import pathlib
import subprocess
import threading

import pytest

import ply_games.checkers as ai

# The seed's two examples (README of the challenge).
EXAMPLE_1 = [
    "________",
    "__b_____",
    "_w_w____",
    "________",
    "_w______",
    "_____b__",
    "____w___",
    "___w____",
]
EXAMPLE_1_AFTER = [
    "________",
    "________",
    "___w____",
    "________",
    "________",
    "__b__b__",
    "____w___",
    "___w____",
]
EXAMPLE_2 = [
    "________",
    "__b_b___",
    "_w______",
    "______b_",
    "_______b",
    "________",
    "________",
    "________",
]
EXAMPLE_2_AFTER = [
    "________",
    "________",
    "_____W__",
    "______b_",
    "_______b",
    "________",
    "________",
    "________",
]

START = [
    "_b_b_b_b",
    "b_b_b_b_",
    "_b_b_b_b",
    "________",
    "________",
    "w_w_w_w_",
    "_w_w_w_w",
    "w_w_w_w_",
]


def board(text):
    """A board from a picture: one row per line, blanks ignored."""
    return [line.replace(" ", "") for line in text.strip().splitlines()]


def same_moves(got, expected):
    """Moves compared as the harness's test.py does: as sets, squares as lists."""
    norm = lambda moves: sorted([list(sq) for sq in m] for m in moves)
    return norm(got) == norm(expected)


# --- The seed's examples ------------------------------------------------------------------


def test_seed_example_1():
    moves = ai.allowed_moves(EXAMPLE_1, "b")
    assert sorted(moves) == [[(1, 2), (3, 0), (5, 2)], [(1, 2), (3, 4)]]
    assert ai.apply_move(EXAMPLE_1, "b", [(1, 2), (3, 0), (5, 2)]) == EXAMPLE_1_AFTER


def test_seed_example_2_exact_output():
    moves = ai.allowed_moves(EXAMPLE_2, "w")
    assert moves == [[(2, 1), (0, 3), (2, 5)]]
    assert repr(moves) == "[[(2, 1), (0, 3), (2, 5)]]"
    assert all(isinstance(sq, tuple) for sq in moves[0])
    assert ai.apply_move(EXAMPLE_2, "w", moves[0]) == EXAMPLE_2_AFTER
    # Black's men cannot take the new king backwards: only quiet moves remain.
    assert sorted(ai.allowed_moves(EXAMPLE_2_AFTER, "b")) == [[(3, 6), (4, 5)], [(4, 7), (5, 6)]]


def test_play_answers_with_a_legal_move_in_the_harness_shape():
    # The only legal move is answered at once; the default time is used otherwise.
    assert ai.play(EXAMPLE_2, "w") == [(2, 1), (0, 3), (2, 5)]
    move = ai.play(START, "b")
    assert move in ai.allowed_moves(START, "b")
    assert isinstance(move, list) and all(isinstance(sq, tuple) and len(sq) == 2 for sq in move)
    assert ai.DEFAULT_TIME == 1.0


def test_signatures_take_keywords():
    assert ai.allowed_moves(board=EXAMPLE_2, color="w", rules="standard") == [[(2, 1), (0, 3)]]
    assert ai.play(board=START, color="w", rules="standard", depth=2) in ai.allowed_moves(
        START, "w", rules="standard"
    )
    assert ai.play(START, "b", time=0.05) in ai.allowed_moves(START, "b")
    assert ai.play(START, "b", time=5.0, depth=1) in ai.allowed_moves(START, "b")


# --- Rules on a few boards ----------------------------------------------------------------


def test_men_move_forward_only():
    b = board("""
        ________
        ________
        _____b__
        ___w____
        ________
        ________
        ________
        ________
    """)
    assert same_moves(ai.allowed_moves(b, "b"), [[(2, 5), (3, 4)], [(2, 5), (3, 6)]])
    assert same_moves(ai.allowed_moves(b, "w"), [[(3, 3), (2, 2)], [(3, 3), (2, 4)]])


def test_kings_move_both_ways_but_one_square():
    b = board("""
        ________
        ________
        ________
        ________
        ___B____
        ________
        ________
        _w______
    """)
    expected = [[(4, 3), (3, 2)], [(4, 3), (3, 4)], [(4, 3), (5, 2)], [(4, 3), (5, 4)]]
    assert same_moves(ai.allowed_moves(b, "b"), expected)


def test_capture_is_mandatory_and_men_do_not_capture_backwards():
    b = board("""
        ________
        ________
        _b___b__
        __w_____
        ______b_
        _______w
        ________
        ________
    """)
    # Black must take (2,1)x(3,2); the man on (2,5) may not make its quiet moves.
    assert same_moves(ai.allowed_moves(b, "b"), [[(2, 1), (4, 3)]])
    # White's man on (5,7) has Black's man on (4,6) in front: it must take it. The man on
    # (3,2) has Black's (2,1) in front with (1,0) free: it must take too.
    assert same_moves(ai.allowed_moves(b, "w"), [[(3, 2), (1, 0)], [(5, 7), (3, 5)]])
    # A man never captures backwards: White's man on (3,4) cannot take (4,5).
    b2 = board("""
        ________
        ________
        ________
        ____w___
        _____b__
        ________
        ________
        ________
    """)
    assert same_moves(ai.allowed_moves(b2, "w"), [[(3, 4), (2, 3)], [(3, 4), (2, 5)]])


def test_kings_do_not_fly():
    b = board("""
        ________
        ________
        ________
        ____b___
        ________
        __W_____
        ________
        ________
    """)
    expected = [[(5, 2), (4, 1)], [(5, 2), (4, 3)], [(5, 2), (6, 1)], [(5, 2), (6, 3)]]
    assert same_moves(ai.allowed_moves(b, "w"), expected)


def test_multi_jump_continues_to_the_end():
    b = board("""
        _b______
        __w_____
        ________
        ____w___
        ________
        ________
        ________
        ________
    """)
    assert ai.allowed_moves(b, "b") == [[(0, 1), (2, 3), (4, 5)]]


def test_crowning_capture_deepomatic_continues_standard_stops():
    b = board("""
        ________
        ________
        ________
        ________
        ________
        __b_____
        ___w_w__
        ________
    """)
    assert ai.allowed_moves(b, "b") == [[(5, 2), (7, 4), (5, 6)]]
    assert ai.allowed_moves(b, "b", rules="deepomatic") == [[(5, 2), (7, 4), (5, 6)]]
    assert ai.allowed_moves(b, "b", rules="standard") == [[(5, 2), (7, 4)]]
    after = ai.apply_move(b, "b", [(5, 2), (7, 4), (5, 6)])
    assert after[5] == "______B_" and after[6] == "________"
    after = ai.apply_move(b, "b", [(5, 2), (7, 4)], rules="standard")
    assert after[7] == "____B___" and after[6] == "_____w__"
    # The seed's example 2 shows the same difference for White.
    assert ai.allowed_moves(EXAMPLE_2, "w", rules="standard") == [[(2, 1), (0, 3)]]


@pytest.mark.parametrize("size", [4, 6, 10, 12, 16])
def test_other_board_sizes(size):
    rows = size // 2 - 1
    start = []
    for r in range(size):
        piece = "b" if r < rows else "w" if r >= size - rows else "_"
        start.append("".join(piece if (r + c) % 2 == 1 else "_" for c in range(size)))
    moves = ai.allowed_moves(start, "b")
    # Every front-row man moves to one or two squares: 2 per man but one at the edge.
    assert len(moves) == size - 1
    assert ai.play(start, "b", depth=2) in moves


def test_no_legal_move_is_an_empty_list():
    assert ai.allowed_moves(["____", "____", "____", "w___"], "b") == []


# --- Bad input: ValueError with the JSON mode's messages ------------------------------------

BAD_INPUTS = [
    (["_b__", "___", "____", "w___"], "b", "row 1 has 3 squares, expected 4"),
    (["_b__", "____", "____", "w____"], "b", "row 3 has 5 squares, expected 4"),
    (["_x__", "____", "____", "w___"], "b", "unknown character 'x' at (0, 1): expected one of _ b B w W"),
    (["_b__", "____", "____", "w___"], "black", 'unknown colour "black": expected "b" or "w"'),
    (["_b__", "____", "____", "w___"], "", 'unknown colour "": expected "b" or "w"'),
    (["_b__", "____", "____", "w___"], "x", "unknown colour 'x': expected 'b' or 'w'"),
    (["_____"] * 5, "b", "unsupported board of 5 rows: expected an even size from 4 to 16"),
    (["_" * 18] * 18, "b", "unsupported board of 18 rows: expected an even size from 4 to 16"),
    ([], "w", "unsupported board of 0 rows: expected an even size from 4 to 16"),
    (["_w__", "____", "____", "____"], "b", "man at (0, 1) stands on its crowning row: it would be a king"),
]


@pytest.mark.parametrize("bad_board,color,message", BAD_INPUTS)
def test_bad_input_raises_value_error_with_the_json_message(bad_board, color, message):
    with pytest.raises(ValueError) as e:
        ai.allowed_moves(bad_board, color)
    assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        ai.play(bad_board, color, time=0.01)
    assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        ai.play(bad_board, color, depth=2)
    assert str(e.value) == message


def test_play_without_a_legal_move():
    over = ["____", "____", "____", "w___"]
    for kwargs in [{}, {"depth": 3}]:
        with pytest.raises(ValueError) as e:
            ai.play(over, "b", **kwargs)
        assert str(e.value) == "no move to play: the side to move has no legal move"


def test_bad_rules_time_depth_and_moves():
    with pytest.raises(ValueError, match=r'^unknown rules "turkish": expected deepomatic or standard$'):
        ai.allowed_moves(EXAMPLE_2, "w", rules="turkish")
    for t in [0, -1.0, float("nan"), float("inf")]:
        with pytest.raises(ValueError, match="^bad time"):
            ai.play(START, "b", time=t)
    for d in [0, -2]:
        with pytest.raises(ValueError, match="^bad depth"):
            ai.play(START, "b", depth=d)
    with pytest.raises(ValueError, match=r"^illegal move \[\(2, 1\), \(4, 3\)\]: legal moves are "):
        ai.apply_move(START, "b", [(2, 1), (4, 3)])
    with pytest.raises(ValueError, match="^bad square"):
        ai.apply_move(START, "b", [(2, 1, 0)])


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        ai.allowed_moves("________", "b")
    with pytest.raises(TypeError):
        ai.allowed_moves([1, 2, 3, 4], "b")
    with pytest.raises(TypeError):
        ai.allowed_moves(START, None)
    with pytest.raises(TypeError):
        ai.play(START, "b", depth=2.5)


def test_type_errors_name_the_argument_and_python_types():
    cases = [
        (lambda: ai.allowed_moves(7, "b"), "board must be a list of strings"),
        (lambda: ai.allowed_moves([1, 2, 3, 4], "b"), "board row 0 must be a string"),
        (lambda: ai.allowed_moves(START, None), "color must be a str, not NoneType"),
        (lambda: ai.play(START, "b", time="fast"), "time must be a number or None, not str"),
        (lambda: ai.play(START, "b", depth=2.5), "depth must be an int or None, not float"),
        (lambda: ai.apply_move(START, "b", "2,1"), "move must be a list of (row, col) pairs"),
        (lambda: ai.apply_move(START, "b", [(2, "1")]), "move square 0 must be a (row, col)"),
        (lambda: ai.allowed_moves(START, "b", rules=1), "rules must be a str, not int"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as e:
            call()
        text = str(e.value)
        assert text.startswith(message), text
        assert "r#" not in text and "Vec" not in text and "extract" not in text, text


def test_a_board_may_be_a_list_of_lists():
    rows = [list(row) for row in START]
    assert ai.allowed_moves(rows, "b") == ai.allowed_moves(START, "b")
    assert ai.apply_move(rows, "b", ai.allowed_moves(START, "b")[0]) == ai.apply_move(
        START, "b", ai.allowed_moves(START, "b")[0]
    )


def _json_mode_binary():
    """The flagship's JSON-lines binary, if built (cargo test/build of the examples)."""
    if os.environ.get("PLY_ENGLISH_CHECKERS"):
        return pathlib.Path(os.environ["PLY_ENGLISH_CHECKERS"])
    root = pathlib.Path(__file__).resolve().parents[2]
    for profile in ["release", "debug"]:
        path = root / "target" / profile / "examples" / "english_checkers"
        if path.exists():
            return path
    return None


def test_messages_equal_the_json_mode_when_its_binary_is_built():
    binary = _json_mode_binary()
    if binary is None:
        pytest.skip("english_checkers example not built (cargo build --example english_checkers)")
    cases = [(b, c) for b, c, _ in BAD_INPUTS] + [(EXAMPLE_1, "b"), (EXAMPLE_2, "w")]
    lines = "".join(json.dumps({"board": b, "color": c}) + "\n" for b, c in cases)
    out = subprocess.run(
        [str(binary), "moves"], input=lines, capture_output=True, text=True, timeout=60, check=True
    ).stdout.splitlines()
    assert len(out) == len(cases)
    for (b, c), reply in zip(cases, out):
        reply = json.loads(reply)
        if isinstance(reply, dict):
            with pytest.raises(ValueError) as e:
                ai.allowed_moves(b, c)
            assert str(e.value) == reply["error"]
        else:
            assert same_moves(ai.allowed_moves(b, c), reply)


# --- Engine against engine ------------------------------------------------------------------


def play_game(first_limits, second_limits, rules="deepomatic", max_plies=300):
    """Plays from the start with `play`, alternating colours, until a side has no legal move;
    checks every move against allowed_moves. Returns the winner ('b', 'w') or None."""
    b, color = list(START), "b"
    limits = {"b": first_limits, "w": second_limits}
    for _ in range(max_plies):
        legal = ai.allowed_moves(b, color, rules=rules)
        if not legal:
            return "w" if color == "b" else "b"
        move = ai.play(b, color, rules=rules, **limits[color])
        assert move in legal, (b, color, move, legal)
        b = ai.apply_move(b, color, move, rules=rules)
        assert all(len(row) == 8 for row in b) and len(b) == 8
        color = "w" if color == "b" else "b"
    return None  # long games of kings: a draw by the ply cap


def test_a_whole_engine_game_by_depth():
    play_game({"depth": 3}, {"depth": 1})


def test_a_whole_engine_game_by_time_under_standard_rules():
    play_game({"time": 0.01}, {"time": 0.01}, rules="standard", max_plies=120)


def test_play_releases_the_gil():
    done = threading.Event()
    result = []

    def worker():
        result.append(ai.play(START, "b", time=0.3))
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    spins = 0
    while not done.is_set():
        spins += 1
    thread.join()
    assert result[0] in ai.allowed_moves(START, "b")
    # Holding the GIL while searching would have let this loop run only between switch
    # intervals (5 ms by default), a few hundred turns at most.
    assert spins > 10_000
