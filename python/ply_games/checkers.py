"""English checkers with the Deepomatic challenge's API: a drop-in for the harness's ``ai``.

    import ply_games.checkers as ai

    board = ['________', '__b_b___', '_w______', '______b_',
             '_______b', '________', '________', '________']
    ai.allowed_moves(board, 'w')   # [[(2, 1), (0, 3), (2, 5)]]
    ai.play(board, 'w')            # [(2, 1), (0, 3), (2, 5)]

A board is a list of N strings of N characters (any even N from 4 to 16), row 0 (Black's
side) first: ``_`` empty, ``b``/``B`` a black man/king, ``w``/``W`` a white man/king. The
colour to move is ``'b'`` or ``'w'``. A move is the list of visited ``(row, col)`` squares.

Rules: ``'deepomatic'`` (the default; the challenge's text: a man crowned during a capture
keeps capturing, backwards too) or ``'standard'`` (WCDF/ACF: the move ends at the crowning).

Bad input raises ``ValueError`` with the message the JSON-lines mode
(``english_checkers moves`` / ``play``) gives for it; arguments of the wrong type raise
``TypeError``.
"""

from ply_games import _native

__all__ = ["allowed_moves", "play", "apply_move", "DEFAULT_TIME"]

#: Seconds per move when ``play`` is given neither ``time`` nor ``depth`` (the JSON mode's
#: ``--time-ms 1000``).
DEFAULT_TIME = _native.CHECKERS_DEFAULT_TIME


def allowed_moves(board, color, rules="deepomatic"):
    """Every legal move of ``color`` on ``board``: a list of moves, each a list of
    ``(row, col)`` tuples from the start square to the last landing square.

    Capturing is mandatory: when a capture exists, only captures are listed. An empty list
    means ``color`` cannot move (and has lost).
    """
    return _native.checkers.allowed_moves(board, color, rules)


def play(board, color, rules="deepomatic", time=None, depth=None):
    """The engine's move for ``color`` on ``board``: a list of ``(row, col)`` tuples, one of
    ``allowed_moves(board, color, rules)``.

    ``time`` is the search time in seconds (default ``DEFAULT_TIME`` when no ``depth`` is
    given), ``depth`` a limit in plies; with both, the search stops at the first reached.
    Raises ``ValueError`` when ``color`` has no legal move. The GIL is released while the
    engine searches.
    """
    return _native.checkers.play(board, color, rules, time, depth)


def apply_move(board, color, move, rules="deepomatic"):
    """The board after ``color`` plays ``move`` (one of ``allowed_moves``): a new list of
    strings; ``board`` is not changed. Not part of the challenge's API, but what a harness
    or a test needs to play a game locally. Raises ``ValueError`` for an illegal move.
    """
    return _native.checkers.apply_move(board, color, move, rules)
