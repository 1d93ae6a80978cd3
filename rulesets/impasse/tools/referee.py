#!/usr/bin/env python3
"""A CodinGame Impasse referee simulation: plays a bot against a greedy opponent and times
every answer as the referee does.

The bot is a program that speaks the CodinGame protocol on stdin/stdout (the colour line, then
per turn 8 board lines, the opponent's last action, the number of legal actions and the
actions, sorted as strings; it answers one action per line). Each game starts a fresh bot
process, as CodinGame does, and the bot plays White in even games and Black in odd ones. An
answer is timed from the moment the referee has written the last byte of the turn's input to
the moment it has read the answer line: the first answer may take 1000 ms, every later one
100 ms, and a late answer loses the game by timeout (the simulation waits for it anyway, up to
a few seconds, to record how late it was). An answer that is not one of the listed actions
loses too, and so does a bot that exits or closes its output. A game ends when a player has
removed its 12 checkers, or drawn after 250 plies.

The rules are an independent model of the CodinGame referee's, the one of
`rulesets/impasse/tests/referee_model.rs` written again in Python on a plain 64-square list:
`--self-test` checks it against the referee's stored action lists
(`rulesets/impasse/tests/data/referee_lists.txt`) and the start position's perft.

The opponent is greedy: it plays the action with the best one-ply value, counted as 100 a
checker removed by either side (its own plus, the bot's minus) and one a row its singles have
advanced towards their far row and its doubles towards their near row, ties broken at random
(seeded: `--seed`). It answers inside the referee, untimed.

Load: `--busy N` starts N busy loops (Python processes spinning) beside the games, in the same
session and so in the same scheduling group as the bot (Linux autogroups would otherwise give
them one share between them), and stops them at the end; `--warmup S` runs them S seconds
before the first game, for the load average to rise to them. The 1-minute load average is read
from /proc/loadavg at the start and after every game and printed with the results: other
programs on the machine add to it.

Usage, from the repository root:

    cargo build --release --example impasse_codingame
    python3 rulesets/impasse/tools/referee.py --games 100 --busy 4 \\
        -- target/release/examples/impasse_codingame --quiet

Everything after `--` is the bot's command line. Options: `--games N` (default 20), `--seed S`
(default 1), `--busy N` (default 0), `--warmup S` (default 0), `--first-limit-ms` and `--turn-limit-ms` (default 1000
and 100), `--log FILE` (the bots' stderr, appended; default discarded), `--json FILE` (every
answer time and game result), `--quiet` (no line per game), `--self-test` (check the rules
model and exit).

Output: a line per game, then the games, wins, losses (timeouts, wrong answers, crashes),
draws, the time the hypervisor took from the machine's processors during the run (the steal
column of /proc/stat: on a virtual machine a late answer may be one the machine itself was
not running; it is printed for each late answer), and the answer times, first turn and later turns apart: count, median, p99 (nearest
rank), maximum, and how many answers passed 50, 80 and 100 ms. The exit status is 0 when no
game was lost by timeout, 1 otherwise.
"""

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import time

CHECKERS = 12
PLY_LIMIT = 250

EMPTY = 0


def single(p):
    """The cell of a single of player p (0 White, 1 Black)."""
    return 1 + 2 * p


def double(p):
    """The cell of a double of player p."""
    return 2 + 2 * p


CELL_CHARS = {EMPTY: ".", single(0): "w", double(0): "W", single(1): "b", double(1): "B"}
CHAR_CELLS = {c: cell for cell, c in CELL_CHARS.items()}

SINGLE_SLIDE, DOUBLE_SLIDE, TRANSPOSE, REMOVE_SINGLE, REMOVE_DOUBLE = range(5)


def sq_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def step(sq, dx, dy):
    x, y = sq % 8 + dx, sq // 8 + dy
    if 0 <= x < 8 and 0 <= y < 8:
        return x + 8 * y
    return None


def far_row(p):
    return 7 if p == 0 else 0


def near_row(p):
    return 7 - far_row(p)


def forward(p):
    return 1 if p == 0 else -1


class Action:
    """One referee action: kind, squares, bear-off, crown (source, target)."""

    __slots__ = ("kind", "frm", "to", "bear_off", "crown")

    def __init__(self, kind, frm, to, bear_off=False, crown=None):
        self.kind, self.frm, self.to, self.bear_off, self.crown = kind, frm, to, bear_off, crown

    def text(self):
        t = sq_name(self.frm)
        if self.to is not None:
            t += sq_name(self.to)
        if self.crown is not None:
            t += sq_name(self.crown[0])
        return t


class State:
    """The referee's game: a 64-square board (a1 = 0, h8 = 63), checkers removed, plies."""

    def __init__(self, board=None, removed=(0, 0), ply=0):
        self.board = list(board) if board is not None else [EMPTY] * 64
        self.removed = list(removed)
        self.ply = ply

    @staticmethod
    def start():
        s = State()
        for names, cell in (
            (("a1", "d2", "e1", "h2"), single(0)),
            (("b8", "c7", "f8", "g7"), double(0)),
            (("a7", "d8", "e7", "h8"), single(1)),
            (("b2", "c1", "f2", "g1"), double(1)),
        ):
            for n in names:
                s.board[ord(n[0]) - ord("a") + 8 * (int(n[1]) - 1)] = cell
        return s

    @staticmethod
    def parse(text):
        """`<row 8>/.../<row 1> <w|b> [<white score> <black score> [<ply>]]`."""
        fields = text.split()
        rows = fields[0].split("/")
        s = State()
        for i, row in enumerate(rows):
            for col, c in enumerate(row):
                s.board[col + 8 * (7 - i)] = CHAR_CELLS[c]
        side = 0 if fields[1] == "w" else 1
        s.ply = int(fields[4]) if len(fields) > 4 else side
        for p in (0, 1):
            s.removed[p] = CHECKERS - s.checkers(p)
        return s

    def copy(self):
        return State(self.board, self.removed, self.ply)

    def to_move(self):
        return self.ply % 2

    def checkers(self, p):
        return self.board.count(single(p)) + 2 * self.board.count(double(p))

    def winner(self):
        for p in (0, 1):
            if self.removed[p] >= CHECKERS:
                return p
        return None

    def is_over(self):
        return self.winner() is not None or self.ply >= PLY_LIMIT

    def lines(self):
        """The board lines as the referee sends them, row 8 first."""
        return ["".join(CELL_CHARS[self.board[x + 8 * y]] for x in range(8)) for y in range(7, -1, -1)]

    def actions(self):
        """Every legal action, each crowning choice a separate action."""
        p = self.to_move()
        out = []
        if self.is_over():
            return out
        b = self.board
        singles = [s for s in range(64) if b[s] == single(p)]
        doubles = [s for s in range(64) if b[s] == double(p)]
        fwd = forward(p)
        for s in singles:
            for dx in (-1, 1):
                at = s
                while True:
                    t = step(at, dx, fwd)
                    if t is None or b[t] != EMPTY:
                        break
                    candidates = [x for x in singles if x != s]
                    if t // 8 == far_row(p):
                        candidates.append(t)
                    self._crowns(out, Action(SINGLE_SLIDE, s, t), candidates)
                    at = t
        for d in doubles:
            for dx in (-1, 1):
                at = d
                while True:
                    t = step(at, dx, -fwd)
                    if t is None or b[t] != EMPTY:
                        break
                    bear_off = t // 8 == near_row(p)
                    candidates = list(singles)
                    if bear_off:
                        candidates.append(t)
                    self._crowns(out, Action(DOUBLE_SLIDE, d, t, bear_off), candidates)
                    at = t
        for d in doubles:
            for dx in (-1, 1):
                t = step(d, dx, -fwd)
                if t is None or b[t] != single(p):
                    continue
                bear_off = t // 8 == near_row(p)
                candidates = list(singles) if bear_off else [x for x in singles if x != t]
                candidates.append(d)
                self._crowns(out, Action(TRANSPOSE, d, t, bear_off), candidates)
        if out:
            return out
        for s in singles:
            out.append(Action(REMOVE_SINGLE, s, None))
        for d in doubles:
            self._crowns(out, Action(REMOVE_DOUBLE, d, None), list(singles) + [d])
        return out

    def _crowns(self, out, action, candidates):
        far = far_row(self.to_move())
        before = len(out)
        for target in candidates:
            if target // 8 != far:
                continue
            for source in candidates:
                if source != target:
                    out.append(Action(action.kind, action.frm, action.to, action.bear_off, (source, target)))
        if len(out) == before:
            out.append(action)

    def play(self, a):
        p = self.to_move()
        b = self.board
        if a.kind == SINGLE_SLIDE:
            b[a.frm], b[a.to] = EMPTY, single(p)
        elif a.kind == DOUBLE_SLIDE:
            b[a.frm], b[a.to] = EMPTY, double(p)
        elif a.kind == TRANSPOSE:
            b[a.frm], b[a.to] = single(p), double(p)
        elif a.kind == REMOVE_SINGLE:
            b[a.frm] = EMPTY
            self.removed[p] += 1
        else:
            b[a.frm] = single(p)
            self.removed[p] += 1
        if a.bear_off:
            b[a.to] = single(p)
            self.removed[p] += 1
        if a.crown is not None:
            source, target = a.crown
            b[source], b[target] = EMPTY, double(p)
        self.ply += 1


def greedy_value(s, p):
    """Player p's one-ply value of s: checkers removed, then progress of its pieces."""
    v = 100 * (s.removed[p] - s.removed[1 - p])
    for sq, cell in enumerate(s.board):
        row = sq // 8
        if cell == single(p):
            v += abs(row - near_row(p))
        elif cell == double(p):
            v += abs(row - far_row(p))
    return v


def greedy_choice(s, rng):
    """The greedy opponent's action in s."""
    p = s.to_move()
    best, best_key = None, None
    for a in s.actions():
        t = s.copy()
        t.play(a)
        w = t.winner()
        value = 10**6 if w == p else greedy_value(t, p)
        key = (value, rng.random())
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def perft(s, depth):
    actions = s.actions()
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    total = 0
    for a in actions:
        t = s.copy()
        t.play(a)
        total += perft(t, depth - 1)
    return total


def self_test(root):
    """Checks the model against the referee's stored lists and the start perft."""
    path = os.path.join(root, "rulesets", "impasse", "tests", "data", "referee_lists.txt")
    checked = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            position, actions = line.rstrip("\n").split(" | ")
            ours = sorted(a.text() for a in State.parse(position).actions())
            if ours != actions.split(" "):
                print(f"line {n}: {position}: model {ours}, referee {actions}")
                return 1
            checked += 1
    counts = [perft(State.start(), d) for d in (1, 2, 3)]
    if counts != [22, 492, 9692]:
        print(f"perft 1-3 from the start: {counts}, expected [22, 492, 9692]")
        return 1
    print(f"the model matches {checked} referee lists and the perft of the start to depth 3")
    return 0


class Bot:
    """One bot process, for one game."""

    def __init__(self, command, log):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, bufsize=0
        )
        self.out = self.proc.stdout.fileno()
        self.buffer = b""

    def ask(self, text, cap):
        """Writes the turn input, then reads one line: (line or None, seconds)."""
        data = text.encode()
        try:
            self.proc.stdin.write(data)  # unbuffered: one write call per turn
        except (BrokenPipeError, OSError):
            return None, 0.0
        start = time.perf_counter()
        while b"\n" not in self.buffer:
            left = cap - (time.perf_counter() - start)
            if left <= 0:
                return None, time.perf_counter() - start
            ready, _, _ = select.select([self.out], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.out, 4096)
            if not chunk:
                return None, time.perf_counter() - start
            self.buffer += chunk
        elapsed = time.perf_counter() - start
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode(errors="replace").strip(), elapsed

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def turn_input(s, last, texts):
    return "\n".join(s.lines() + [last if last is not None else "null", str(len(texts))] + texts) + "\n"


def play_game(command, bot_color, rng, limits, log):
    """One game; returns (result, reason, first answer seconds, [later answer seconds],
    [hypervisor steal ms of each processor during each answer])."""
    s = State.start()
    bot = Bot(command, log)
    first, later, steals = None, [], []
    last = None
    header = "w\n" if bot_color == 0 else "b\n"
    result, reason = None, ""
    try:
        while not s.is_over():
            actions = s.actions()
            if s.to_move() != bot_color:
                a = greedy_choice(s, rng)
                last = a.text()
                s.play(a)
                continue
            texts = sorted(a.text() for a in actions)
            limit = limits[0] if first is None else limits[1]
            stolen = steal_ms()
            line, took = bot.ask(header + turn_input(s, last, texts), max(5.0, 3 * limit))
            steals.append(since(stolen, steal_ms()))
            header = ""
            if first is None:
                first = took
            else:
                later.append(took)
            if line is None:
                result, reason = "loss", "crash" if took < max(5.0, 3 * limit) else "timeout"
                break
            if took > limit:
                result, reason = "loss", "timeout"
                break
            answer = line.split(" ")[0] if line else ""
            if answer == "random":
                answer = rng.choice(texts)
            chosen = next((a for a in actions if a.text() == answer), None)
            if chosen is None:
                result, reason = "loss", f"invalid {line!r}"
                break
            last = answer
            s.play(chosen)
    finally:
        bot.close()
    if result is None:
        w = s.winner()
        result = "draw" if w is None else ("win" if w == bot_color else "loss")
        reason = f"{s.removed[bot_color]}-{s.removed[1 - bot_color]} in {s.ply} plies"
    return result, reason, first, later, steals


def steal_ms():
    """Time the hypervisor has taken from each of this machine's processors, in ms (the steal
    column of /proc/stat; empty where there is none)."""
    try:
        tick = 1000 / os.sysconf("SC_CLK_TCK")
        with open("/proc/stat") as f:
            cpus = [line.split() for line in f if line.startswith("cpu") and line[3].isdigit()]
        return [tick * int(fields[8]) for fields in cpus]
    except (OSError, IndexError, ValueError):
        return []


def since(before, after):
    """Per-processor differences of two `steal_ms` readings."""
    return [b - a for a, b in zip(before, after)]


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return float("nan")


def percentile(sorted_values, q):
    """Nearest-rank percentile of a sorted list."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, -(-len(sorted_values) * q // 100) - 1))
    return sorted_values[int(k)]


def summary_row(name, values):
    v = sorted(values)
    if not v:
        return f"| {name} | 0 | | | | | | |"
    ms = lambda x: f"{1000 * x:.1f}"
    over = lambda t: sum(1 for x in v if x > t / 1000)
    return (
        f"| {name} | {len(v)} | {ms(percentile(v, 50))} | {ms(percentile(v, 99))} | {ms(v[-1])} "
        f"| {over(50)} | {over(80)} | {over(100)} |"
    )


def main():
    ap = argparse.ArgumentParser(
        description="Plays a CodinGame Impasse bot against a greedy opponent and times its answers.",
        epilog="Everything after -- is the bot's command line.",
    )
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--busy", type=int, default=0, help="busy loops to run beside the games")
    ap.add_argument(
        "--warmup", type=float, default=0.0, help="seconds of busy loops before the first game"
    )
    ap.add_argument("--first-limit-ms", type=float, default=1000.0)
    ap.add_argument("--turn-limit-ms", type=float, default=100.0)
    ap.add_argument("--log", help="append the bots' stderr to this file")
    ap.add_argument("--json", help="write every answer time and result to this file")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    ap.add_argument("--self-test", action="store_true", help="check the rules model and exit")
    ap.add_argument("bot", nargs="*", help="the bot's command line (after --)")
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    if args.self_test:
        return self_test(root)
    if not args.bot:
        ap.error("give the bot's command after --")
    limits = (args.first_limit_ms / 1000, args.turn_limit_ms / 1000)
    log = open(args.log, "ab") if args.log else subprocess.DEVNULL
    busy = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)
    ]
    time.sleep(args.warmup)
    loads = [loadavg()]
    started = time.time()
    counts = {"win": 0, "loss": 0, "draw": 0}
    reasons = {"timeout": 0, "invalid": 0, "crash": 0}
    firsts, laters, games, late = [], [], [], []
    steal_start = steal_ms()
    try:
        for g in range(args.games):
            rng = random.Random(args.seed * 1_000_003 + g)
            color = g % 2
            result, reason, first, later, steals = play_game(args.bot, color, rng, limits, log)
            counts[result] += 1
            for key in reasons:
                if reason.startswith(key):
                    reasons[key] += 1
            if first is not None:
                firsts.append(first)
            laters.extend(later)
            loads.append(loadavg())
            worst = max([first or 0.0] + later)
            times = ([first] if first is not None else []) + later
            for i, (t, stolen) in enumerate(zip(times, steals)):
                stolen = ", ".join(f"cpu{c} {ms:.0f}" for c, ms in enumerate(stolen))
                if t > (limits[0] if i == 0 else limits[1]):
                    late.append((g + 1, i + 1, t, stolen))
            games.append(
                {"game": g, "bot": "wb"[color], "result": result, "reason": reason,
                 "first": first, "later": later, "steal_ms": steals, "loadavg": loads[-1]}
            )
            if not args.quiet:
                print(
                    f"game {g + 1:3}: bot {'wb'[color]} {result:4} {reason:24} "
                    f"answers {len(later) + (first is not None):3}, longest {1000 * worst:6.1f} ms, "
                    f"load {loads[-1]:.2f}",
                    flush=True,
                )
    finally:
        for p in busy:
            p.send_signal(signal.SIGTERM)
        for p in busy:
            p.wait()
    n = sum(counts.values())
    print(
        f"\n{n} games in {time.time() - started:.0f} s, busy loops: {args.busy}, "
        f"1-minute load average {min(loads):.2f}-{max(loads):.2f} (start {loads[0]:.2f}, "
        f"end {loads[-1]:.2f}), {os.cpu_count()} cores"
    )
    print(
        f"bot: {counts['win']} wins, {counts['loss']} losses ({reasons['timeout']} by timeout, "
        f"{reasons['invalid']} by a wrong answer, {reasons['crash']} by a crash), "
        f"{counts['draw']} draws"
    )
    stolen = ", ".join(f"cpu{c} {ms:.0f}" for c, ms in enumerate(since(steal_start, steal_ms())))
    print(f"hypervisor steal during the run, ms: {stolen or 'none'}")
    for g, turn, t, stolen in late:
        print(f"late: game {g}, answer {turn}: {1000 * t:.1f} ms, steal meanwhile, ms: {stolen}")
    print("\n| answers | count | median ms | p99 ms | max ms | > 50 ms | > 80 ms | > 100 ms |")
    print("|---|---|---|---|---|---|---|---|")
    print(summary_row("first turn", firsts))
    print(summary_row("later turns", laters))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "loadavg": loads, "games": games}, f)
    return 1 if reasons["timeout"] else 0


if __name__ == "__main__":
    sys.exit(main())
