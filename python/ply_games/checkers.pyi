"""Type stubs of ply_games.checkers: the Deepomatic challenge's API (see checkers.py)."""

from typing import List, Optional, Sequence, Tuple, Union

#: A board: N strings of N characters, or N lists of one-character strings.
Board = Union[Sequence[str], Sequence[Sequence[str]]]
#: A move: the visited (row, col) squares.
Path = List[Tuple[int, int]]

DEFAULT_TIME: float

def allowed_moves(board: Board, color: str, rules: str = ...) -> List[Path]: ...
def play(
    board: Board,
    color: str,
    rules: str = ...,
    time: Optional[float] = ...,
    depth: Optional[int] = ...,
) -> Path: ...
def apply_move(
    board: Board, color: str, move: Sequence[Sequence[int]], rules: str = ...
) -> List[str]: ...
