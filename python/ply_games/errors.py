"""The exceptions ply raises, one class per kind of failure.

Every class derives from ``ply_games.Error``, and from the built-in exception a caller would
expect: bad input (a game option, an agent spec, a move or position) is a ``ValueError``, a
file that cannot be read an ``OSError``, an external engine's failure or an internal error a
``RuntimeError``::

    try:
        ply_games.load("english-checkers", size=7)
    except ply_games.GameOptionError as e:
        print(e)
"""


class Error(Exception):
    """Any error ply raises."""


class GameOptionError(Error, ValueError):
    """A game that cannot be set up: an unknown name, an option it does not take, a value it
    refuses."""


class SpecError(Error, ValueError):
    """An agent spec that does not parse, or does not build for this game."""


class InputError(Error, ValueError):
    """Input that does not read or fit: a move, a position, a game record, an index."""


class FileError(Error, OSError):
    """A file that cannot be read or written, or cannot be what it is asked to be."""


class EngineError(Error, RuntimeError):
    """An external engine that failed: it did not start, broke its protocol or died."""


class InternalError(Error, RuntimeError):
    """A failure inside ply (please report it)."""


__all__ = [
    "Error",
    "GameOptionError",
    "SpecError",
    "InputError",
    "FileError",
    "EngineError",
    "InternalError",
]
