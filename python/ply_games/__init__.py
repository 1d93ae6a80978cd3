"""ply's board games for Python.

Two APIs over the same Rust engines:

* ``ply_games.checkers``: the Deepomatic challenge's ``allowed_moves(board, color)`` and
  ``play(board, color)``, a drop-in for the harness's ``ai`` module
  (``import ply_games.checkers as ai``).
* A generic API for every bundled game, in the spirit of OpenSpiel's::

      import ply_games

      game = ply_games.load("english-checkers", rules="standard")
      state = game.new_initial_state()
      while not game.is_terminal(state):
          best = ply_games.search(game, state, depth=4)
          state = game.apply(state, best.move)
      print(game.returns(state))

Games are loaded by their registry names (``ply_games.games()``) with the command line's
options as keyword arguments. States are immutable: ``Game.apply`` returns a new state.
Moves are notation strings (``"11-15"``); ``apply`` also takes an index into
``legal_moves(state)``.

A game in play, as the terminal and the web board have it, is a ``Session``::

      session = game.session(seats=[None, "alphabeta:depth=6"])
      session.play("11-15")
      report = session.engine_move(progress=print)   # live search info while it thinks
      session.undo(); session.hint(); session.analyse()
      open("game.pdn", "w").write(session.save()["text"])

Errors are the classes of ``ply_games.errors`` (``SpecError``, ``GameOptionError``,
``InputError``, ``FileError``, ``EngineError``, ``InternalError``), each a ``ply_games.Error``
and a ``ValueError``, ``OSError`` or ``RuntimeError``, with the tools' messages.
"""

try:
    from ply_games import _native
except ImportError as e:  # the source tree's ply_games/, not the installed package
    raise ImportError(
        "ply_games: the compiled module ply_games._native is missing; install the package "
        "with `pip install ./python` from the repository root, and do not run Python from "
        f"the python/ directory, whose ply_games/ would hide the installed one ({__file__})"
    ) from e
from ply_games._native import (
    AGENTS,
    AGENTS_HELP,
    DEFAULT_SEARCH_TIME,
    TERMINAL,
    Game,
    SearchResult,
    Session,
    State,
    __version__,
)
from ply_games import checkers
from ply_games.errors import (
    EngineError,
    Error,
    FileError,
    GameOptionError,
    InputError,
    InternalError,
    SpecError,
)

__all__ = [
    "AGENTS",
    "AGENTS_HELP",
    "DEFAULT_SEARCH_TIME",
    "TERMINAL",
    "Game",
    "SearchResult",
    "Session",
    "State",
    "Error",
    "GameOptionError",
    "SpecError",
    "InputError",
    "FileError",
    "EngineError",
    "InternalError",
    "checkers",
    "divide",
    "games",
    "load",
    "perft",
    "search",
    "solve",
    "__version__",
]


def _option_text(value):
    """An option value as the command line writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    return str(value)


def games():
    """The names of the games ``load`` knows, in the registry's order."""
    return _native.game_names()


def load(name, **options):
    """The game called ``name`` (see ``games()``), built with the command line's options.

    ``rules`` and ``size`` are the ``--rules`` and ``--size`` flags (``size`` may be a
    number, ``"7x6"`` or a ``(cols, rows)`` pair), ``players`` is ``--players``, and any
    other keyword is a ``--variant KEY=VALUE`` flag (``connect=3``, ``heaps=(3, 4, 5)``)::

        load("english-checkers", rules="standard", size=10)
        load("reversi", size=6, players=3)
        load("connect-four", size=(5, 4), connect=3)
        load("three-heaps", heaps=(2, 3, 4))

    Raises ``ValueError`` with the registry's message for an unknown game, an option the
    game does not take, or a value it refuses.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str (see ply_games.games()), not {type(name).__name__}")
    rules = options.pop("rules", None)
    size = options.pop("size", None)
    players = options.pop("players", None)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if isinstance(size, (list, tuple)):
        size = "x".join(str(s) for s in size)
    variants = [(key, _option_text(value)) for key, value in options.items() if value is not None]
    return _native.load(
        name,
        None if rules is None else str(rules),
        None if size is None else str(size),
        None if players is None else int(players),
        variants,
    )


def search(game, state, algorithm="alphabeta", time=None, depth=None, **options):
    """Searches ``state`` with one of ply's agents and returns a ``SearchResult``: the move
    in notation (``.move``, and ``.index`` in ``legal_moves``), its value (``.kind``,
    ``.value``, ``.plies``, ``.value_text``), the principal variation, depth, nodes, time.

    ``algorithm`` is an agent name or a whole agent spec as the tools take it
    (``"alphabeta"``, ``"mcts:iters=2000,c=1.4"``, ``"greedy"``); keyword arguments add
    options (``depth=6``, ``nodes=100000``, ``iters=500``, ``eval="material"``, ``seed=3``,
    ``tt=64``, ``threads=2``, ``solver=True``, ``cmd="scan hub"`` for external engines...).
    ``ply_games.AGENTS`` lists the agents' names and ``ply_games.AGENTS_HELP`` their options.
    ``time`` is in seconds; a search given no depth, time, nodes or iterations gets
    ``DEFAULT_SEARCH_TIME`` (1 s). Without ``seed`` the agents that use one are seeded from
    the clock.

    The GIL is released while the agent searches. Raises ``ValueError`` for a bad spec, an
    evaluation the game does not have, a finished game, or an algorithm that cannot play it
    (two-player alpha-beta on a three-player game); ``RuntimeError`` if an external engine
    fails.
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a ply_games.Game, not {type(game).__name__}")
    if not isinstance(state, State):
        raise TypeError(f"state must be a ply_games.State, not {type(state).__name__}")
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, not {type(algorithm).__name__}")
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float))):
        raise TypeError(f"time must be a number of seconds or None, not {type(time).__name__}")
    if depth is not None:
        options["depth"] = depth
    pairs = [(key, _option_text(value)) for key, value in options.items() if value is not None]
    return _native.search(game, state, str(algorithm), pairs, time)


def _counting(game, state, depth):
    if not isinstance(game, Game):
        raise TypeError(f"game must be a ply_games.Game, not {type(game).__name__}")
    if not isinstance(state, State):
        raise TypeError(f"state must be a ply_games.State, not {type(state).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")


def perft(game, state, depth):
    """The number of leaves of the legal-move tree ``depth`` plies below ``state`` (bulk
    counting, as the perft tool). The GIL is released while it counts."""
    _counting(game, state, depth)
    return _native.perft(game, state, depth)


def solve(game, state, *, weak=False, analyse=False, time=None, memory=256, threads=0):
    """``state``'s exact value under perfect play, for one- and two-player games (ply's
    ``solve``): a dict with ``value`` (the margin where the game scores by points, else 1, 0
    or -1 for the player to move), ``result``, ``plies``, ``text``, ``best`` (every move that
    keeps the value), ``moves`` (with ``analyse=True``: each move's value), ``nodes`` and
    ``time_ms``. ``weak`` settles win, draw or loss alone; ``time`` (seconds) gives up with
    an error; ``memory`` is the table's MiB, ``threads`` 0 for every core. The GIL is
    released while it proves; Ctrl-C stops it."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a ply_games.Game, not {type(game).__name__}")
    if not isinstance(state, State):
        raise TypeError(f"state must be a ply_games.State, not {type(state).__name__}")
    return _native.solve(game, state, weak, analyse, time, memory, threads)


def divide(game, state, depth):
    """Perft split by first move: a list of ``(move, leaves)`` in generation order."""
    _counting(game, state, depth)
    return _native.divide(game, state, depth)
