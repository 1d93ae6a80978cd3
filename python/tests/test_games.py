"""The generic API: ply_games.load / Game / State / search / perft on every registered game."""

import copy
import random
import threading
import zlib

import pytest

import ply_games

GAMES = [
    ("english-checkers", {}),
    ("english-checkers", {"rules": "standard", "size": 10}),
    ("english-checkers", {"size": 4}),
    ("international-draughts", {}),
    ("impasse", {}),
    ("reversi", {}),
    ("reversi", {"size": 6, "players": 3}),
    ("reversi", {"players": 4}),
    ("breakthrough", {"size": "6x5"}),
    ("breakthrough", {}),
    ("kalah", {}),
    ("kalah", {"pits": 4, "seeds": 3, "capture": "none"}),
    ("tictactoe", {}),
    ("connect-four", {}),
    ("connect-four", {"size": (5, 4), "connect": 3}),
    ("three-heaps", {}),
    ("three-heaps", {"heaps": (1, 2, 3)}),
]

IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in GAMES]


def test_every_registered_game_is_covered():
    assert ply_games.games() == [
        "english-checkers",
        "international-draughts",
        "impasse",
        "reversi",
        "breakthrough",
        "kalah",
        "tictactoe",
        "connect-four",
        "three-heaps",
    ]
    assert {name for name, _ in GAMES} == set(ply_games.games())


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
def test_random_games_to_the_end(name, options):
    game = ply_games.load(name, **options)
    assert game.name == name
    n = game.num_players()
    rng = random.Random(zlib.crc32(repr((name, options)).encode()))
    for _ in range(3):
        state = game.new_initial_state()
        seen = [state]
        for plies in range(10_000):
            if game.is_terminal(state):
                break
            moves = game.legal_moves(state)
            keys = game.legal_move_keys(state)
            assert moves and len(keys) == len(moves)
            assert all(isinstance(k, int) and 0 <= k for k in keys)
            if game.move_key_space() > 0:
                assert all(k < game.move_key_space() for k in keys)
            player = game.current_player(state)
            assert 0 <= player < n
            assert game.returns(state) == [0.0] * n
            i = rng.randrange(len(moves))
            child = game.apply(state, i)
            if moves.count(moves[i]) == 1:
                # The notation names the same move as the index.
                assert game.apply(state, moves[i]) == child
            # The text round trip gives back the same state.
            text = game.to_string(child)
            back = game.from_string(text)
            assert back == child and hash(back) == hash(child)
            assert game.to_string(back) == text
            state = child
            seen.append(state)
        else:
            pytest.fail(f"{name} did not end in 10000 plies")
        assert game.legal_moves(state) == []
        assert game.current_player(state) == ply_games.TERMINAL
        returns = game.returns(state)
        assert len(returns) == n
        assert all(0.0 <= r <= 1.0 for r in returns)
        assert sum(returns) == pytest.approx(n / 2)
        # States are immutable: the first is still the start.
        assert seen[0] == game.new_initial_state()


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
def test_search_returns_a_legal_move(name, options):
    game = ply_games.load(name, **options)
    state = game.new_initial_state()
    algorithm = "alphabeta" if game.num_players() == 2 else "paranoid"
    result = ply_games.search(game, state, algorithm, depth=2)
    legal = game.legal_moves(state)
    assert result.move in legal and legal[result.index] == result.move
    assert result.pv and result.pv[0] == result.move
    assert result.kind in {"heuristic", "reward", "win", "loss", "draw", "unknown"}
    assert result.agent == f"{algorithm}:depth=2"
    assert result.elapsed >= 0 and result.nodes >= 0
    game.apply(state, result.index)


def test_every_agent_kind_and_evaluation_names():
    game = ply_games.load("reversi")
    state = game.new_initial_state()
    legal = game.legal_moves(state)
    for algorithm, kwargs in [
        ("alphabeta", {"depth": 3}),
        ("alphabeta", {"time": 0.02}),
        ("alphabeta", {}),
        ("alphabeta", {"nodes": 500, "tt": 1}),
        ("alphabeta:plain=true,depth=2", {}),
        ("mcts", {"iters": 200, "seed": 1, "eval": "discs"}),
        ("mcts:iters=100,c=1.4", {"solver": False, "threads": 2}),
        ("maxn", {"depth": 2}),
        ("brs", {"depth": 2}),
        ("greedy", {"eval": "standard"}),
        ("random", {"seed": 5}),
    ]:
        result = ply_games.search(game, state, algorithm, **kwargs)
        assert result.move in legal, (algorithm, kwargs)
    assert ply_games.search(game, state).agent == "alphabeta:time=1s"
    assert ply_games.DEFAULT_SEARCH_TIME == 1.0 == ply_games.checkers.DEFAULT_TIME
    # Same seed, same random move.
    a = ply_games.search(game, state, "random", seed=9).move
    assert all(ply_games.search(game, state, "random", seed=9).move == a for _ in range(5))
    assert isinstance(ply_games.AGENTS, list)
    assert ply_games.AGENTS[:2] == ["alphabeta", "mcts"] and "jsonl" in ply_games.AGENTS
    assert "alphabeta" in ply_games.AGENTS_HELP and "probcut" in ply_games.AGENTS_HELP


def test_search_values():
    game = ply_games.load("tictactoe")
    result = ply_games.search(game, game.new_initial_state(), depth=9)
    assert (result.kind, result.value, result.plies, result.value_text) == ("draw", None, None, "draw")
    # X to move wins at once on the top row.
    state = game.from_string("xx.oo....")
    result = ply_games.search(game, state, depth=3)
    assert result.move == game.legal_moves(state)[result.index]
    assert result.kind == "win" and result.plies == 1
    mcts = ply_games.search(game, game.new_initial_state(), "mcts", iters=300, seed=1)
    assert mcts.kind in {"reward", "draw", "win", "loss"} and mcts.iterations > 0


def test_perft_and_divide():
    checkers = ply_games.load("english-checkers", rules="standard")
    start = checkers.new_initial_state()
    assert [ply_games.perft(checkers, start, d) for d in range(6)] == [1, 7, 49, 302, 1469, 7361]
    divide = ply_games.divide(checkers, start, 3)
    assert len(divide) == 7 and sum(n for _, n in divide) == 302
    assert sorted(m for m, _ in divide) == sorted(checkers.legal_moves(start))
    draughts = ply_games.load("international-draughts")
    assert ply_games.perft(draughts, draughts.new_initial_state(), 3) == 658
    reversi = ply_games.load("reversi")
    assert ply_games.perft(reversi, reversi.new_initial_state(), 5) == 1396
    with pytest.raises(ValueError):
        ply_games.perft(checkers, start, -1)
    with pytest.raises(ValueError):
        ply_games.divide(checkers, start, 0)


def test_solve_gives_exact_values():
    game = ply_games.load("tictactoe")
    answer = ply_games.solve(game, game.from_string("xx.oo...."), analyse=True, threads=1)
    assert (answer["value"], answer["result"], answer["plies"]) == (1, "win", 1)
    assert answer["text"] == "win in 1 ply" and len(answer["best"]) == 1
    assert len(answer["moves"]) == 5 and answer["nodes"] > 0
    assert ply_games.solve(game, game.new_initial_state(), weak=True)["result"] == "draw"
    kalah = ply_games.load("kalah", pits=3, seeds=2)
    margin = ply_games.solve(kalah, kalah.new_initial_state())
    assert margin["plies"] is None and "moves" not in margin
    assert margin["text"] == ("draw" if margin["value"] == 0 else f"{margin['value']:+}")
    three = ply_games.load("reversi", players=3)
    with pytest.raises(ply_games.InputError, match="one- and two-player"):
        ply_games.solve(three, three.new_initial_state())
    with pytest.raises(ValueError):
        ply_games.solve(game, game.new_initial_state(), time=-1)
    with pytest.raises(TypeError):
        ply_games.solve("tictactoe", game.new_initial_state())


def test_states_are_values_and_carry_their_game():
    game = ply_games.load("english-checkers")
    state = game.new_initial_state()
    assert state.game == game and state.game.name == "english-checkers"
    assert str(state) == game.to_string(state)
    assert str(state) == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert state.clone() == state and copy.copy(state) == state and copy.deepcopy(state) == state
    assert state.legal_moves() == game.legal_moves(state)
    assert state.legal_move_keys() == game.legal_move_keys(state)
    child = state.child("11-15")
    assert child == game.apply(state, "11-15") and child != state
    assert child.current_player() == 1 and not child.is_terminal() and child.returns() == [0.0, 0.0]
    assert len({state, state.clone(), child}) == 2
    assert "english-checkers" in repr(state)
    assert game.render(state) == state.render() and "\n" in game.render(state)
    assert isinstance(game.evaluate(child, 0), float)
    # The same game loaded twice shares its states; other options do not.
    assert ply_games.load("english-checkers").legal_moves(state) == state.legal_moves()
    assert game.clone() == game and copy.deepcopy(game) == game
    assert repr(game) == 'ply_games.load("english-checkers")'
    assert game.seat_names == ["Black", "White"]
    assert game.options == {}
    ten = ply_games.load("english-checkers", rules="standard", size=10)
    assert ten.options == {"rules": "standard", "size": "10"}
    assert ten != game
    with pytest.raises(ValueError, match="another game"):
        ten.legal_moves(state)
    with pytest.raises(ValueError, match="another game"):
        ply_games.perft(ten, state, 1)


def test_bad_input_raises_value_error_with_the_tools_messages():
    def message(f):
        with pytest.raises(ValueError) as e:
            f()
        return str(e.value)

    assert message(lambda: ply_games.load("chess")).startswith(
        'unknown game "chess"; known games: english-checkers, international-draughts'
    )
    assert message(lambda: ply_games.load("english-checkers", rules="turkish")) == (
        'english-checkers: bad --rules "turkish": unknown rules "turkish": '
        "expected deepomatic or standard"
    )
    assert message(lambda: ply_games.load("english-checkers", size=7)).startswith(
        'english-checkers: bad --size "7"'
    )
    assert message(lambda: ply_games.load("tictactoe", size=4)).startswith(
        "tictactoe does not take --size; it accepts: no options"
    )
    assert message(lambda: ply_games.load("connect-four", colour=3)).startswith(
        "connect-four does not take --variant colour=..."
    )
    assert message(lambda: ply_games.load("reversi", players=7)).startswith(
        'reversi: bad --size/--players "8/7"'
    )
    assert "bad --players" in message(lambda: ply_games.load("reversi", players=-1))
    assert message(lambda: ply_games.load("three-heaps", heaps=(1, 2))).startswith(
        'three-heaps: bad heaps "1,2"'
    )
    game = ply_games.load("english-checkers")
    state = game.new_initial_state()
    assert message(lambda: game.apply(state, "22-18")) == (
        "illegal move 22-18: not a legal move in this position"
    )
    assert message(lambda: game.apply(state, "hello")).startswith('cannot read move "hello"')
    assert message(lambda: game.apply(state, 7)) == (
        "move index 7 out of range: the position has 7 legal moves"
    )
    assert "out of range" in message(lambda: game.apply(state, -1))
    assert message(lambda: game.from_string("nonsense")).startswith('malformed fen "nonsense"')
    assert message(lambda: ply_games.search(game, state, "alphabta")).startswith(
        'unknown agent "alphabta"; accepted agents:'
    )
    assert message(lambda: ply_games.search(game, state, eval="tuned")) == (
        'unknown evaluation "tuned"; this game has: default, classic, material, learned, net'
    )
    assert message(lambda: ply_games.search(game, state, "greedy", depth=2)).startswith(
        'greedy: unknown option "depth"'
    )
    assert message(lambda: ply_games.search(game, state, depth=0)).startswith(
        'alphabeta: bad value "0" for depth'
    )
    assert message(lambda: ply_games.search(game, state, time=-1)).startswith("bad time -1")
    assert message(lambda: ply_games.search(game, state, "hub", cmd="scan hub")) == (
        "hub engines cannot play this game: it has no hub protocol codec"
    )
    over = game.from_string("W:W:B1")
    assert game.is_terminal(over) and game.returns(over) == [1.0, 0.0]
    assert message(lambda: ply_games.search(game, over, depth=2)) == (
        "engine alphabeta:depth=2: the position has no legal move"
    )
    heaps = ply_games.load("three-heaps")
    assert "does not support" in message(
        lambda: ply_games.search(heaps, heaps.new_initial_state(), depth=2)
    )
    with pytest.raises(TypeError):
        game.apply(state, 1.5)
    with pytest.raises(TypeError):
        game.legal_moves("B:W21:B1")


def test_fuzzed_text_never_crashes():
    rng = random.Random(3)
    alphabet = "0123456789abcdefghx-:;,./KWB ()xo.\u00e9"
    for name in ply_games.games():
        game = ply_games.load(name)
        state = game.new_initial_state()
        for _ in range(200):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
            for f in (lambda: game.apply(state, text), lambda: game.from_string(text)):
                try:
                    f()
                except ValueError:
                    pass


def test_random_arguments_raise_python_errors_only():
    """Thousands of calls with arguments of every kind: each returns or raises ValueError,
    TypeError or OverflowError, never an internal error (RuntimeError) or a crash."""
    rng = random.Random(11)
    values = [
        None, True, 0, 1, -3, 7, 2**40, 0.5, float("nan"), float("inf"), "", "x", "b", "w",
        "standard", "11-15", "d3", "alphabeta", "mcts:iters=5", "random", [], [[]], ["_b__"],
        [["_", "b"]], [(2, 1), (0, 3)], (1, 2), {}, b"b", object(),
    ]
    board = [
        "_b_b_b_b", "b_b_b_b_", "_b_b_b_b", "________", "________", "w_w_w_w_", "_w_w_w_w",
        "w_w_w_w_",
    ]
    checkers = ply_games.load("english-checkers")
    start = checkers.new_initial_state()

    def small(a):
        """A depth that keeps each call short: large numbers and None become 1."""
        if a is None or (isinstance(a, int) and not isinstance(a, bool) and a > 3):
            return 1
        return a

    calls = [
        lambda a, b: ply_games.load(a),
        lambda a, b: ply_games.load("reversi", size=a, players=b),
        lambda a, b: ply_games.checkers.allowed_moves(a, b),
        lambda a, b: ply_games.checkers.allowed_moves(board, a, b),
        lambda a, b: ply_games.checkers.apply_move(board, "b", a),
        lambda a, b: ply_games.checkers.play(board, "b", depth=small(a)),
        lambda a, b: checkers.apply(start, a),
        lambda a, b: checkers.from_string(a),
        lambda a, b: ply_games.search(checkers, start, a, depth=1),
        lambda a, b: ply_games.perft(checkers, start, small(a)),
        lambda a, b: checkers.evaluate(start, a),
    ]
    for _ in range(3000):
        call = rng.choice(calls)
        try:
            call(rng.choice(values), rng.choice(values))
        except (ValueError, TypeError, OverflowError):
            pass


def test_search_and_perft_release_the_gil():
    game = ply_games.load("english-checkers")
    state = game.new_initial_state()
    done = threading.Event()
    result = []

    def worker():
        result.append(ply_games.search(game, state, time=0.3))
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    spins = 0
    while not done.is_set():
        spins += 1
    thread.join()
    assert result[0].move in game.legal_moves(state)
    assert spins > 10_000


def test_wrong_types_name_the_argument_in_python_terms():
    game = ply_games.load("tictactoe")
    state = game.new_initial_state()
    cases = [
        (lambda: ply_games.load(3), "name must be a str"),
        (lambda: ply_games.load("reversi", players="two"), "players must be an int, not str"),
        (lambda: ply_games.search("tictactoe", state), "game must be a ply_games.Game, not str"),
        (lambda: ply_games.search(game, "x........"), "state must be a ply_games.State, not str"),
        (lambda: ply_games.search(game, state, 5), "algorithm must be a str, not int"),
        (lambda: ply_games.search(game, state, time="1s"), "time must be a number of seconds"),
        (lambda: ply_games.perft(game, state, 2.0), "depth must be an int, not float"),
        (lambda: game.apply(state, 1.5), "a move is a str (notation) or an int"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(message), str(e.value)


def test_type_stubs_cover_the_public_api():
    import ast
    import pathlib

    package = pathlib.Path(ply_games.__file__).parent
    assert (package / "py.typed").exists()
    stub = ast.parse((package / "__init__.pyi").read_text())
    declared = {
        node.name for node in stub.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    }
    declared |= {
        node.target.id
        for node in stub.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    declared |= {alias.asname or alias.name for node in stub.body
                 if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert set(ply_games.__all__) <= declared, set(ply_games.__all__) - declared
    checkers = ast.parse((package / "checkers.pyi").read_text())
    names = {n.name for n in checkers.body if isinstance(n, ast.FunctionDef)}
    assert set(ply_games.checkers.__all__) - {"DEFAULT_TIME"} <= names


def test_ctrl_c_ends_a_search_at_once():
    import _thread
    import time

    game = ply_games.load("connect-four")
    state = game.new_initial_state()
    for search in [
        lambda: ply_games.search(game, state, time=60),
        lambda: ply_games.checkers.play(
            ["_b_b_b_b", "b_b_b_b_", "_b_b_b_b", "________", "________",
             "w_w_w_w_", "_w_w_w_w", "w_w_w_w_"],
            "b",
            time=60,
        ),
    ]:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        started = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            search()
        timer.join()
        assert time.monotonic() - started < 10


def test_sessions_play_undo_hint_analyse_and_save_every_game():
    for name in ply_games.games():
        game = ply_games.load(name)
        seats = [None] * game.num_players()
        seats[1] = "random:seed=2"
        session = game.session(seats=seats, seed=5)
        view = session.view()
        assert view["to_move"] == 0 and view["moves"] == [], name
        while session.view()["to_move"] == 0:  # Kalah's extra turns
            session.play(0)
        before = len(session.view()["moves"])
        report = session.engine_move()
        assert report["move"] == session.view()["moves"][before]["text"], name
        assert session.undo() and len(session.view()["moves"]) < before, name
        assert session.redo(), name
        played = len(session.view()["moves"])
        saved = session.save()
        assert saved["extension"] in ("pdn", "ggf", "txt"), name
        session.new_game()
        assert session.load(saved["text"]) == played, name
        analysis = session.analyse("random:seed=1")
        assert len(analysis["moves"]) == played and analysis["stopped"] is False, name
        if session.view()["result"] is None:
            assert session.hint()["index"] is not None, name
        assert session.take_back_to(1) == played - 1, name
    session = ply_games.load("tictactoe").session()
    assert session.view()["seats"][0] is None and session.view()["seats"][1], "a person first"
    session.play("b2")
    assert session.view()["moves"][0] == {"text": "b2", "mover": 0}


def test_session_progress_is_reported_while_the_engine_thinks():
    game = ply_games.load("connect-four")
    session = game.session(seats=[None, "alphabeta:time=600ms"])
    session.play("4")
    seen = []
    report = session.engine_move(progress=seen.append)
    assert seen, "the callback was called while the engine thought"
    assert any(s["thinking"] and s["thinking"]["depth"] >= 1 for s in seen), seen
    assert report["depth"] >= 1

    def fail(_):
        raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError):
        session.hint(progress=fail)


def test_errors_are_classes_by_kind():
    from ply_games import errors

    with pytest.raises(ply_games.GameOptionError):
        ply_games.load("english-checkers", size=7)
    with pytest.raises(ply_games.SpecError):
        ply_games.load("tictactoe").session(seats=[None, "nonsense"])
    session = ply_games.load("tictactoe").session(seats=[None, None])
    with pytest.raises(ply_games.InputError):
        session.play("z9")
    with pytest.raises(ply_games.InputError):
        session.engine_move()
    with pytest.raises(ply_games.FileError):
        session.set_seat(1, "alphabeta:book=/dev/zero")
    for cls in (errors.GameOptionError, errors.SpecError, errors.InputError):
        assert issubclass(cls, ValueError) and issubclass(cls, ply_games.Error)
    assert issubclass(errors.FileError, OSError)
    assert issubclass(errors.EngineError, RuntimeError)


def test_learned_search_plays_with_the_shipped_network_or_names_the_training():
    game = ply_games.load("connect-four")
    state = game.new_initial_state()
    for algorithm, kwargs in [("puct", {"iters": 64}), ("gumbel:m=4", {"iters": 32, "seed": 2})]:
        result = ply_games.search(game, state, algorithm, **kwargs)
        assert result.move in game.legal_moves(state), algorithm
        assert result.kind == "reward"
    other = ply_games.load("international-draughts")
    with pytest.raises(ply_games.Error, match="tune zero"):
        ply_games.search(other, other.new_initial_state(), "puct", iters=8)
