#!/usr/bin/env bash
# Regenerates docs/benchmarks/current.md: runs the criterion benches of ply-bench (the
# cross-game bench `games` and the per-game benches checkers, draughts, impasse, search and
# reversi), reads criterion's results (target/criterion/**/new/{benchmark,estimates}.json) and
# writes the page: the machine and build, then one table per benchmark group. Each run is also
# kept as a dated record, docs/benchmarks/experiments/DATE-speed-figures.md.
#
# Usage: scripts/docs/bench-figures.sh [--quick] [--only BENCH[,BENCH...]] [--filter REGEX]
#                                      [--out FILE] [--no-record]
#   --quick        short criterion settings (--warm-up-time 1 --measurement-time 2
#                  --sample-size 10); benches that set their own times in code keep them
#   --only LIST    run only these benches (games, checkers, draughts, impasse, search,
#                  reversi), e.g. --only checkers,draughts
#   --filter RE    pass RE to criterion: only the benchmarks whose name matches, e.g.
#                  --filter perft (with --quick: a perft-only run of a few minutes)
#   --out FILE     write the page here instead of docs/benchmarks/current.md
#   --no-record    do not write the dated record
#
# A full run takes about half an hour on a 2-core machine; run it on a quiet machine, as the
# figures are single-threaded throughput. Needs cargo and python3.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/docs/benchmarks/current.md"
quick=0
only="games,checkers,draughts,impasse,search,reversi"
filter=""
record=1
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --only) only="$2"; shift ;;
        --filter) filter="$2"; shift ;;
        --out) out="$2"; shift ;;
        --no-record) record=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench-figures.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

for b in ${only//,/ }; do
    case "$b" in
        games|checkers|draughts|impasse|search|reversi) ;;
        *) echo "bench-figures.sh: unknown bench $b" >&2; exit 2 ;;
    esac
done

cd "$repo"
target=${CARGO_TARGET_DIR:-$repo/target}
criterion_dir=${CRITERION_HOME:-$target/criterion}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

criterion_args=(--noplot)
if [ "$quick" = 1 ]; then
    criterion_args+=(--warm-up-time 1 --measurement-time 2 --sample-size 10)
fi
if [ -n "$filter" ]; then
    criterion_args+=("$filter")
fi

# The machine and build, as key<TAB>value lines.
{
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    tpc=$(lscpu 2>/dev/null | sed -n 's/^Thread(s) per core:[[:space:]]*//p' | head -1)
    printf 'cpu\t%s, %s vCPUs, %s thread(s) per core\n' "${cpu:-unknown}" "$(nproc)" "${tpc:-?}"
    printf 'memory\t%s GiB\n' "$(awk '/^MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo)"
    printf 'os\t%s, %s\n' "$(uname -sr)" "$(uname -m)"
    printf 'toolchain\t%s, %s\n' "$(rustc --version)" "$(cargo --version)"
    # `bench` inherits `release`; the comment lines above the section are left out.
    profile=$(awk '/^\[profile.release\]/ {on = 1; next} /^\[/ {on = 0} on && NF && !/^#/ {print "`" $0 "`"}' \
        Cargo.toml | paste -sd, - | sed 's/,/, /g')
    printf 'profile\t`bench`, which inherits `release` from the root `Cargo.toml`: %s\n' "${profile:-the defaults}"
    if [ -n "${RUSTFLAGS:-}" ]; then
        printf 'rustflags\t%s (RUSTFLAGS)\n' "$RUSTFLAGS"
    else
        printf 'rustflags\t%s (.cargo/config.toml)\n' \
            "$(sed -n 's/^rustflags = \[\(.*\)\]/\1/p' .cargo/config.toml | tr -d '",' )"
    fi
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        commit="$commit, with uncommitted changes"
    fi
    printf 'date\t%s\n' "$(date -u +%F)"
    printf 'commit\t%s\n' "$commit"
    if [ "$quick" = 1 ]; then
        printf 'settings\t--quick: %s\n' "${criterion_args[*]}"
    else
        printf 'settings\tcriterion defaults, or the sampling each bench sets\n'
    fi
} > "$work/machine.tsv"

# Each bench: its results (the criterion files newer than its start) and the load around it.
: > "$work/runs.tsv"
for b in ${only//,/ }; do
    stamp="$work/stamp-$b"
    touch "$stamp"
    sleep 1
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    echo "== cargo bench -p ply-bench --bench $b -- ${criterion_args[*]}" >&2
    cargo bench -p ply-bench --bench "$b" -- "${criterion_args[@]}" 2>&1 | tee "$work/log-$b" >&2
    load_after=$(cut -d' ' -f1 /proc/loadavg)
    if [ -d "$criterion_dir" ]; then
        find "$criterion_dir" -path '*/new/benchmark.json' -newer "$stamp" > "$work/files-$b"
    else
        : > "$work/files-$b"
    fi
    printf '%s\t%s\t%s\t%s\n' "$b" "$load_before" "$load_after" "$work/files-$b" >> "$work/runs.tsv"
done

record_path=""
if [ "$record" = 1 ]; then
    record_path="$repo/docs/benchmarks/experiments/$(date -u +%F)-speed-figures.md"
fi

python3 - "$work" "$out" "$quick" "$filter" "$record_path" <<'PY'
import json, os, sys

work, out, quick, filt, record_path = sys.argv[1:6]
quick = quick == "1"
machine = dict(l.rstrip("\n").split("\t", 1) for l in open(os.path.join(work, "machine.tsv")))
runs = [l.rstrip("\n").split("\t") for l in open(os.path.join(work, "runs.tsv"))]


def sig3(x):
    """A number with three significant digits, without trailing zeros."""
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}".rstrip("0").rstrip(".")
    return f"{x:.2f}".rstrip("0").rstrip(".")


def duration(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{sig3(ns / scale)} {unit}"
    return f"{sig3(ns)} ns"


def rate(per_s, unit):
    for prefix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_s >= scale:
            return f"{sig3(per_s / scale)} {prefix}{unit}/s"
    return f"{sig3(per_s)} {unit}/s"


def unit_of(full_id):
    if "marathon" in full_id:
        return None
    if "perft" in full_id:
        return "leaves"
    if "mcts" in full_id or "/iters" in full_id:
        return "iterations"
    if "movegen" in full_id or "positions" in full_id:
        return "positions"
    return "nodes"


def results(listing):
    rows = []
    for path in open(listing).read().split():
        bench = json.load(open(path))
        est_path = os.path.join(os.path.dirname(path), "estimates.json")
        median = json.load(open(est_path))["median"]["point_estimate"]
        elements = (bench.get("throughput") or {}).get("Elements")
        rows.append((os.path.getmtime(est_path), bench, median, elements))
    rows.sort(key=lambda r: r[0])
    return rows


def table(rows):
    lines = ["| benchmark | work per iteration | median time | throughput |", "|---|---|---|---|"]
    for _, bench, median, elements in rows:
        name = bench["full_id"][len(bench["group_id"]) + 1:]
        unit = unit_of(bench["full_id"])
        if elements and unit:
            work_cell = f"{elements:,} {unit}"
            thrpt = rate(elements / (median / 1e9), unit)
        else:
            work_cell, thrpt = "", ""
        lines.append(f"| `{name}` | {work_cell} | {duration(median)} | {thrpt} |")
    return "\n".join(lines)


def groups(rows):
    order, by = [], {}
    for r in rows:
        g = r[1]["group_id"]
        if g not in by:
            order.append(g)
            by[g] = []
        by[g].append(r)
    return [(g, by[g]) for g in order]


crit = " ".join(["--noplot"] + (["--warm-up-time 1 --measurement-time 2 --sample-size 10"] if quick else []) + ([filt] if filt else []))
page = []
page.append("## Machine and build\n")
page.append("| | |\n|---|---|")
for key, label in (("cpu", "CPU"), ("memory", "Memory"), ("os", "OS"), ("toolchain", "Toolchain"),
                   ("profile", "Profile"), ("rustflags", "Code generation")):
    page.append(f"| {label} | {machine[key]} |")
page.append(f"| Date | {machine['date']}, commit `{machine['commit'].split(',')[0]}`"
            + (", with uncommitted changes" if "uncommitted" in machine["commit"] else "") + " |")
page.append(f"| Criterion | {machine['settings']} |")
loads = ", ".join(f"`{b}` {lb} to {la}" for b, lb, la, _ in runs)
page.append(f"| Load average (1 minute, before and after each bench) | {loads} |")
page.append("")
page.append(
    "Every benchmark runs on one thread. Criterion's medians hide single outliers but not a "
    "steady\nslowdown: compare figures within one run, and runs only on a quiet machine.\n"
)

by_bench = {b: results(listing) for b, _, _, listing in runs}
if "games" in by_bench:
    page.append("## Cross-game benchmarks (`bench/benches/games.rs`)\n")
    page.append("```sh\ncargo bench -p ply-bench --bench games -- " + crit + "\n```\n")
    page.append(
        "Benchmarks are named `<game>/<algorithm>/<position>/<size>` and go through the generic\n"
        "interfaces only (`ply::perft`, `Agent::choose`), so games and algorithms are compared on "
        "equal\nterms. Each workload is sized by a count (`ply_tools::bench::Sizes`: the smallest "
        "depth whose\nperft reaches 2 M leaves, whose search reaches 300 k nodes; 3,000 MCTS "
        "iterations). perft\ncounts the last ply with `Game::count_moves` and asserts its count; "
        "alphabeta is\n`AlphaBeta::new()` (16 MiB table, forgotten before every search), paranoid "
        "and maxn\n`MultiplayerSearch` with their defaults, mcts `Mcts::new().with_seed(1)`. "
        "Positions: `start`, and `middle`, 20 seeded random\nplies in. Throughput is leaves/s "
        "(perft), nodes/s (searches) or iterations/s (MCTS); the work\nof one iteration divided "
        "by criterion's median time.\n"
    )
    for g, rows in groups(by_bench["games"]):
        page.append(f"### {g}\n")
        page.append(table(rows) + "\n")

per_game = [b for b in by_bench if b != "games"]
if per_game:
    page.append("## Per-game benchmarks\n")
    page.append("```sh\n" + "\n".join(
        f"cargo bench -p ply-bench --bench {b} -- {crit}" for b in per_game) + "\n```\n")
    page.append(
        "The rulesets' own benches: specialised and generic perft, move generation and "
        "alpha-beta\n(`checkers/alphabeta` searches the Deepomatic rules), Impasse's "
        "generate/apply/evaluate on\n187 positions, the tutorial games' searches, and Reversi's "
        "bitboard perft, exact endgame,\nmultiplayer searches and marathon test-case generation "
        "(no throughput).\n"
    )
    for b in per_game:
        for g, rows in groups(by_bench[b]):
            page.append(f"### {g}\n")
            page.append(table(rows) + "\n")

if not any(by_bench.values()):
    sys.exit("bench-figures.sh: no criterion results were found; nothing written")
body = "\n".join(page).rstrip("\n") + "\n"
about = (
    "measured with [criterion](https://docs.rs/criterion/0.5)\non the machine described below. "
    "They are there to compare games and algorithms with each other\nand to spot regressions on "
    "the same machine, not as absolute claims: rerun them on your own\nhardware with the "
    "commands given."
)
day = machine["date"]
current = (
    f"# Current speed figures\n\nThe speed figures of the latest benchmark run, {about}\n"
    "`scripts/docs/bench-figures.sh` runs the commands and writes this page; each run is also\n"
    "kept as a dated record in [the experiments](experiments/README.md)"
    + (f" (this one: [{day}](experiments/{day}-speed-figures.md))" if record_path else "")
    + ".\n\n"
)
open(out, "w").write(current + body)
print(f"wrote {out}", file=sys.stderr)
if record_path:
    record = (
        f"# Speed figures of {day}\n\nSpeed figures of ply's benchmark run of {day}, {about}\n"
        "`scripts/docs/bench-figures.sh` wrote this record and the\n"
        "[current figures](../current.md).\n\n"
    )
    open(record_path, "w").write(record + body)
    print(f"wrote {record_path}", file=sys.stderr)
PY
