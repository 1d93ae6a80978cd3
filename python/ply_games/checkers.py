"""English checkers with the Deepomatic challenge's API: a drop-in for the harness's ``ai``.

    import ply_games.checkers as ai

    board = ['________', '__b_b___', '_w______', '______b_',
             '_______b', '________', '________', '________']
    ai.allowed_moves(board, 'w')   # [[(2, 1), (0, 3), (2, 5)]]
    ai.play(board, 'w')            # [(2, 1), (0, 3), (2, 5)]

A board is a list of N strings of N characters (any even N from 4 to 16), or a list of N
lists of one-character strings, row 0 (Black's side) first: ``_`` empty, ``b``/``B`` a
black man/king, ``w``/``W`` a white man/king. The colour to move is ``'b'`` or ``'w'``. A
move is the list of visited ``(row, col)`` squares.

Rules: ``'deepomatic'`` (the default; the challenge's text: a man crowned during a capture
keeps capturing, backwards too) or ``'standard'`` (WCDF/ACF: the move ends at the crowning).

Bad input raises ``ValueError`` with the message the JSON-lines mode
(``english_checkers moves`` / ``play``) gives for it; an argument of the wrong type raises
``TypeError`` naming the argument and the type it got.
"""

from ply_games import _native

__all__ = ["allowed_moves", "play", "apply_move", "DEFAULT_TIME"]

#: Seconds per move when ``play`` is given neither ``time`` nor ``depth``: the package's one
#: default search time, ``ply_games.DEFAULT_SEARCH_TIME`` (the JSON mode's ``--time-ms 1000``).
DEFAULT_TIME = _native.DEFAULT_SEARCH_TIME


def _type_name(value):
    return type(value).__name__


def _board(board):
    """``board`` as a list of strings, from a list of strings or of lists of characters."""
    if isinstance(board, (str, bytes)) or not isinstance(board, (list, tuple)):
        raise TypeError(
            "board must be a list of strings (or of lists of one-character strings), "
            f"not {_type_name(board)}"
        )
    rows = []
    for i, row in enumerate(board):
        if isinstance(row, str):
            rows.append(row)
        elif isinstance(row, (list, tuple)) and all(isinstance(c, str) for c in row):
            rows.append("".join(row))
        else:
            raise TypeError(
                f"board row {i} must be a string or a list of one-character strings, "
                f"not {_type_name(row)}"
            )
    return rows


def _text(name, value):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {_type_name(value)}")
    return value


def _number(name, value, kind):
    """``value`` if it is ``None`` or a number of ``kind`` (bool is not a number here)."""
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    wanted = "an int" if kind is int else "a number"
    raise TypeError(f"{name} must be {wanted} or None, not {_type_name(value)}")


def _move(move):
    """``move`` as a list of lists of ints (a square of another length is the native
    side's ``ValueError``)."""
    if isinstance(move, (str, bytes)) or not isinstance(move, (list, tuple)):
        raise TypeError(f"move must be a list of (row, col) pairs, not {_type_name(move)}")
    squares = []
    for i, square in enumerate(move):
        if not isinstance(square, (list, tuple)) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in square
        ):
            raise TypeError(f"move square {i} must be a (row, col) pair of ints, not {square!r}")
        squares.append(list(square))
    return squares


def allowed_moves(board, color, rules="deepomatic"):
    """Every legal move of ``color`` on ``board``: a list of moves, each a list of
    ``(row, col)`` tuples from the start square to the last landing square.

    Capturing is mandatory: when a capture exists, only captures are listed. An empty list
    means ``color`` cannot move (and has lost).
    """
    return _native.checkers.allowed_moves(
        _board(board), _text("color", color), _text("rules", rules)
    )


def play(board, color, rules="deepomatic", time=None, depth=None):
    """The engine's move for ``color`` on ``board``: a list of ``(row, col)`` tuples, one of
    ``allowed_moves(board, color, rules)``.

    ``time`` is the search time in seconds (default ``DEFAULT_TIME`` when no ``depth`` is
    given), ``depth`` a limit in plies; with both, the search stops at the first reached.
    Raises ``ValueError`` when ``color`` has no legal move. The GIL is released while the
    engine searches.
    """
    return _native.checkers.play(
        _board(board),
        _text("color", color),
        _text("rules", rules),
        _number("time", time, (int, float)),
        _number("depth", depth, int),
    )


def apply_move(board, color, move, rules="deepomatic"):
    """The board after ``color`` plays ``move`` (one of ``allowed_moves``): a new list of
    strings; ``board`` is not changed. Not part of the challenge's API, but what a harness
    or a test needs to play a game locally. Raises ``ValueError`` for an illegal move.
    """
    return _native.checkers.apply_move(
        _board(board), _text("color", color), _move(move), _text("rules", rules)
    )
