#!/usr/bin/env python3
"""Where an English-checkers match's games were won and lost, by material: replays every game
of an arena results file (JSON lines, or gzipped) and, for one agent, prints its material
balance (its pieces minus the opponent's, a king counting as one) every 20 plies after the
opening, apart for its wins, draws and losses, and the ply from which it stayed behind in the
games it lost.

usage: checkers-material.py RESULTS.jsonl[.gz] [--agent SUBSTRING]

--agent: the agent whose side is counted, by a part of its spec (default: the file's first
agent). Moves are in the standard notation of the arena's records (`11-15`, `15x24`,
`31x22x13x6`); the start position is the record's `start` (`B:W21,...:B1,...`).
"""
import argparse
import collections
import gzip
import json
import sys


def row_col(square):
    """Row (0 at black's side) and column of a square numbered 1-32."""
    s = square - 1
    row = s // 4
    return row, (s % 4) * 2 + (1 if row % 2 == 0 else 0)


def square_at(row, col):
    return row * 4 + col // 2 + 1


def parse_start(fen):
    """The side to move (`B` or `W`) and {square: (colour, king)} of a start position."""
    side, *parts = fen.split(":")
    board = {}
    for part in parts:
        colour = part[0]
        for token in part[1:].split(","):
            if token:
                board[int(token.lstrip("K"))] = (colour, token.startswith("K"))
    return side, board


def play(board, move):
    """Applies one move in standard notation to the board."""
    sep = "x" if "x" in move else "-"
    squares = [int(s) for s in move.split(sep)]
    colour, king = board.pop(squares[0])
    if sep == "x":
        for a, b in zip(squares, squares[1:]):
            (r1, c1), (r2, c2) = row_col(a), row_col(b)
            board.pop(square_at((r1 + r2) // 2, (c1 + c2) // 2))
    row, _ = row_col(squares[-1])
    if (colour == "B" and row == 7) or (colour == "W" and row == 0):
        king = True
    board[squares[-1]] = (colour, king)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("--agent", help="a part of the counted agent's spec")
    args = parser.parse_args()
    opener = gzip.open if args.results.endswith(".gz") else open
    try:
        with opener(args.results, "rt") as f:
            games = [json.loads(line) for line in f if line.strip()]
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as e:
        sys.exit(f"{args.results}: not a readable arena results file: {e}")
    if not games:
        sys.exit(f"{args.results}: no games")
    first = games[0]
    if not isinstance(first, dict) or not isinstance(first.get("agents"), list):
        sys.exit(f"{args.results}: not an arena results file (its first line names no agents)")
    if first.get("game") != "english-checkers":
        sys.exit(f"{args.results}: a match of {first.get('game')!r}, not of english-checkers")
    agents = first["agents"]
    matches = [i for i, a in enumerate(agents) if args.agent is None or args.agent in a]
    if not matches:
        sys.exit(f"no agent matches {args.agent!r}: {agents}")
    me = matches[0]
    balances = {"won": [], "drawn": [], "lost": []}
    behind_from = collections.Counter()
    for number, game in enumerate(games, 1):
        try:
            count_game(game, me, balances, behind_from)
        except (KeyError, ValueError, TypeError, IndexError) as e:
            sys.exit(f"{args.results}: game {number}: not an English-checkers record ({e!r})")
    print_tables(agents[me], len(games), balances, behind_from)


def count_game(game, me, balances, behind_from):
    """Adds one game's balances to the tables."""
    seat = game["seats"].index(me)
    result = game["result"]
    outcome = "drawn" if result == "draw" else ("won" if result["winner"] == seat else "lost")
    side, board = parse_start(game["start"])
    colour = [side, "W" if side == "B" else "B"][seat]
    balance = []
    for move in game["moves"]:
        play(board, move)
        mine = sum(1 for c, _ in board.values() if c == colour)
        balance.append((len(board), 2 * mine - len(board)))
    balances[outcome].append(balance)
    if outcome == "lost":
        first = next((i + 1 for i in range(len(balance))
                      if all(b < 0 for _, b in balance[i:])), None)
        behind_from["never" if first is None else (first - 1) // 20 * 20 + 1] += 1


def print_tables(agent, games, balances, behind_from):
    """Prints the balances by outcome and the lost games by the ply they were lost from."""
    print(f"{agent}: {games} games")
    for outcome, rows in balances.items():
        print(f"{outcome}: {len(rows)} games")
        for at in range(20, 201, 20):
            now = [b[at - 1] for b in rows if len(b) >= at]
            if len(now) < 2:
                break
            mean = sum(x for _, x in now) / len(now)
            pieces = sum(p for p, _ in now) / len(now)
            behind = sum(1 for _, x in now if x < 0)
            ahead = sum(1 for _, x in now if x > 0)
            print(f"  ply {at:3}: {len(now):4} games, {pieces:4.1f} pieces, balance {mean:+.2f}, "
                  f"behind in {behind}, ahead in {ahead}")
    if behind_from:
        print("lost games by the ply from which the agent stayed behind in material:")
        for start in sorted(k for k in behind_from if k != "never"):
            print(f"  plies {start:3}-{start + 19:3}: {behind_from[start]}")
        if behind_from["never"]:
            print(f"  never behind to the end: {behind_from['never']}")


if __name__ == "__main__":
    main()
