#!/usr/bin/env python3
"""Two matches on the same openings, compared opening by opening: reads two arena results files
(JSON lines, or gzipped) of the same game, options, seed and number of games, so that each game
number has the same opening and seats in both, and prints one agent's score in each over the
games both hold, and the difference with a 95% interval from the per-opening differences.

usage: paired-records.py NEW.jsonl[.gz] OLD.jsonl[.gz] [--agent SUBSTRING] [--old-agent SUBSTRING]

Two versions of an engine, each matched against the same opponent, differ by less than either
match's own interval shows: the openings' draws and wins repeat from one match to the other, so
their differences vary far less than the scores. --agent picks the compared agent in the first
file by a part of its spec, --old-agent in the second (defaults: the first file's first agent,
and the same spec or, failing that, the --agent part, in the second).
"""
import argparse
import collections
import gzip
import json
import math
import sys


def load(path):
    """The games of one results file, as a list of dicts."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as f:
            games = [json.loads(line) for line in f if line.strip()]
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as e:
        sys.exit(f"{path}: not a readable arena results file: {e}")
    if not games:
        sys.exit(f"{path}: no games")
    for number, game in enumerate(games, 1):
        if not isinstance(game, dict) or not all(
            k in game for k in ("agents", "index", "opening", "seats", "result")
        ):
            sys.exit(f"{path}: game {number}: not an arena game record")
    return games


def pick(agents, part, path):
    """The index of the agent whose spec contains `part` (the first agent when None)."""
    if part is None:
        return 0
    found = [i for i, a in enumerate(agents) if part in a]
    if not found:
        sys.exit(f"{path}: no agent matches {part!r}: {agents}")
    return found[0]


def score(game, agent):
    """The agent's points in one two-player game: 1, 0.5 or 0."""
    result = game["result"]
    if result == "draw":
        return 0.5
    if not isinstance(result, dict) or "winner" not in result:
        raise ValueError(f"game {game['index']}: a result this script does not read: {result!r}")
    return 1.0 if game["seats"][result["winner"]] == agent else 0.0


def schedule(game):
    """What must agree for two games of the same number to be comparable."""
    return (game.get("game"), game.get("options"), game.get("seed"), game.get("scheduled"))


def elo(points):
    """The logistic Elo difference of a score in (0, 1)."""
    points = min(max(points, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / points - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--agent", help="a part of the compared agent's spec in NEW")
    parser.add_argument("--old-agent", help="a part of the compared agent's spec in OLD")
    args = parser.parse_args()
    new, old = load(args.new), load(args.old)
    if schedule(new[0]) != schedule(old[0]):
        sys.exit(
            "the two files are not the same schedule (game, options, seed, games): "
            f"{schedule(new[0])} against {schedule(old[0])}"
        )
    a = pick(new[0]["agents"], args.agent, args.new)
    spec = new[0]["agents"][a]
    if args.old_agent is None and spec in old[0]["agents"]:
        b = old[0]["agents"].index(spec)
    else:
        b = pick(old[0]["agents"], args.old_agent or args.agent, args.old)
    if len(new[0]["seats"]) != 2:
        sys.exit("only two-player matches are compared")
    by_index = {g["index"]: g for g in old}
    pairs = collections.defaultdict(lambda: [0.0, 0.0, 0])
    try:
        for g in new:
            h = by_index.get(g["index"])
            if h is None:
                continue
            if g["opening"] != h["opening"] or g.get("opening_moves") != h.get("opening_moves"):
                sys.exit(f"game {g['index']}: the two files open it differently")
            if g["seats"].index(a) != h["seats"].index(b):
                sys.exit(f"game {g['index']}: the compared agents sit on different seats")
            p = pairs[g["opening"]]
            p[0] += score(g, a)
            p[1] += score(h, b)
            p[2] += 1
    except ValueError as e:
        sys.exit(str(e))
    if not pairs:
        sys.exit("the two files hold no game of the same number")
    games = sum(p[2] for p in pairs.values())
    s_new = sum(p[0] for p in pairs.values()) / games
    s_old = sum(p[1] for p in pairs.values()) / games
    diffs = [p[0] - p[1] for p in pairs.values()]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else float("nan")
    half = 1.96 * math.sqrt(var / n) * n / games
    d = s_new - s_old
    print(f"{games} games on {n} openings held by both files")
    print(f"  {args.new}: {spec}: {100 * s_new:.1f}%  ({elo(s_new):+.0f} Elo)")
    print(f"  {args.old}: {old[0]['agents'][b]}: {100 * s_old:.1f}%  ({elo(s_old):+.0f} Elo)")
    print(
        f"  difference: {100 * d:+.1f} points [{100 * (d - half):+.1f}, {100 * (d + half):+.1f}] "
        f"(95%, from the openings' differences), about {elo(s_new) - elo(s_old):+.0f} Elo "
        f"[{elo(s_old + d - half) - elo(s_old):+.0f}, {elo(s_old + d + half) - elo(s_old):+.0f}]"
    )
    changed = collections.Counter(round(x, 1) for x in diffs)
    print("  openings by their change in points: " + ", ".join(
        f"{k:+.1f}: {changed[k]}" for k in sorted(changed)))


if __name__ == "__main__":
    main()
