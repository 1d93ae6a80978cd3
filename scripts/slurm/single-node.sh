#!/usr/bin/env bash
# End-to-end check of arena-array.sbatch on a one-machine Slurm cluster.
#
# On a Debian 12 machine, as root:
#
#   ARENA=/path/to/arena bash scripts/slurm/single-node.sh [--keep]
#
# 1. installs slurm-wlm, munge and jq from Debian's packages (unless already there);
# 2. writes a single-node slurm.conf (this host is controller and only compute node;
#    no cgroups, so it also works in a container) and starts munged, slurmctld and
#    slurmd directly, without systemd, with all their state under WORK;
# 3. submits a 4-task array of a short arena run, cancels one task while it is playing,
#    lets the array finish, resubmits the cancelled task alone, and merges the shards;
# 4. checks that every scheduled game is in exactly one shard file, prints the figures,
#    and exits non-zero on any failure;
# 5. stops the daemons it started (unless --keep).
#
# Environment (defaults in brackets):
#   ARENA        the arena binary [built with cargo build --release --example arena]
#   WORK         conf, spool, logs and shard files [/tmp/ply-slurm]
#   NODE_CPUS    CPUs the node offers to jobs [nproc]
#   ARRAY_LIMIT  most array tasks running at once, e.g. 1 on a busy machine [no limit]
#   GAME, AGENTS, GAMES, SEED  the run [connect-four, "alphabeta:depth=9 mcts:iters=60000", 40, 1]
#   TIMEOUT      seconds to wait for any one step [300]

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=$(realpath -m "${WORK:-/tmp/ply-slurm}")
NODE_CPUS=${NODE_CPUS:-$(nproc)}
TIMEOUT=${TIMEOUT:-300}
KEEP=0
SHARDS=4
export GAME=${GAME:-connect-four}
export AGENTS=${AGENTS:-alphabeta:depth=9 mcts:iters=60000}
export GAMES=${GAMES:-40}
export SEED=${SEED:-1}
export THREADS=1 SHARDS OUT_DIR=$WORK/results
export SLURM_CONF=$WORK/etc/slurm.conf

for arg in "$@"; do
    case $arg in
    --keep) KEEP=1 ;;
    -h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "single-node: unknown argument $arg (try --help)" >&2; exit 2 ;;
    esac
done

T0=$SECONDS
say() { printf '[%4ds] %s\n' $((SECONDS - T0)) "$*"; }
fail() {
    say "FAILED: $*" >&2
    for log in "$WORK"/log/*.log "$WORK"/log/arena-*.out; do
        [[ -s $log ]] && { echo "--- tail of $log" >&2; tail -n 15 "$log" >&2; }
    done
    exit 1
}
# Polls `$@` every POLL seconds until it succeeds, failing after TIMEOUT seconds with WHAT.
wait_for() {
    local what=$1 deadline=$((SECONDS + TIMEOUT))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || fail "timed out after ${TIMEOUT}s waiting for $what"
        sleep "${POLL:-0.5}"
    done
}

[[ $(id -u) == 0 ]] || { echo "single-node: run this as root" >&2; exit 2; }
# WORK is emptied on every run: refuse a folder that this script did not make.
mkdir -p "$WORK"
if [[ ! -e $WORK/.ply-slurm && -n $(ls -A "$WORK") ]]; then
    echo "single-node: WORK=$WORK is not empty and not a folder of this script: choose another" >&2
    exit 2
fi
touch "$WORK/.ply-slurm"

# --- 1. packages -------------------------------------------------------------------------
have_all() { local c; for c in "$@"; do command -v "$c" >/dev/null || return 1; done; }
if have_all slurmctld slurmd sbatch munged jq; then
    say "slurm, munge and jq are installed"
else
    say "installing slurm-wlm, munge and jq with apt-get"
    # Keep the packages' init scripts from starting daemons with the system-wide config.
    added_policy=0
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
        added_policy=1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge jq >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; fail "apt-get install"; }
    if ((added_policy)); then rm -f /usr/sbin/policy-rc.d; fi
fi

if [[ -z ${ARENA:-} ]]; then
    say "ARENA not set: building the arena (cargo build --release --example arena)"
    (cd "$REPO" && cargo build --release --example arena)
    ARENA=${CARGO_TARGET_DIR:-$REPO/target}/release/examples/arena
fi
[[ -x $ARENA ]] || fail "no arena binary at $ARENA"
ARENA=$(realpath "$ARENA")
export ARENA

# --- 2. a one-node cluster -----------------------------------------------------------------
pid1=$(ps -p 1 -o comm= || true)
say "PID 1 is '$pid1'; the daemons are started directly, not as services"

# Stops the daemons that a run with this WORK started (this one or an earlier --keep).
stop_daemons() {
    local name pid
    for name in slurmd slurmctld munged; do
        pid=$(cat "$WORK/run/$name.pid" 2>/dev/null) || continue
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid"
            for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        fi
        rm -f "$WORK/run/$name.pid"
    done
}
stop_daemons
rm -rf "${WORK:?}"/{etc,run,log,state,spool,results}
mkdir -p "$WORK"/{etc,run,log,state,spool,results,munge}
chmod 711 "$WORK/munge"  # the socket must be reachable, the key stays private
if ((KEEP)); then
    trap 'say "--keep: daemons left running; SLURM_CONF=$SLURM_CONF; stop them with: kill \$(cat $WORK/run/*.pid)"' EXIT
else
    trap 'stop_daemons; say "daemons stopped"' EXIT
fi

NODE=$(hostname -s)
cat >"$SLURM_CONF" <<EOF
# A one-node cluster for testing: $NODE is controller and only compute node.
ClusterName=ply
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/munge.socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
# No cgroups and no systemd: track job processes by parent pid, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# Keep finished jobs visible to scontrol for the report; kill cancelled tasks quickly.
MinJobAge=3600
KillWait=5
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$NODE_CPUS State=UNKNOWN
PartitionName=main Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

say "starting munged, slurmctld and slurmd (node $NODE, $NODE_CPUS CPUs, state in $WORK)"
key=$WORK/munge/munge.key
[[ -s $key ]] || { dd if=/dev/urandom of="$key" bs=1024 count=1 status=none && chmod 400 "$key"; }
# --force: start even over a socket left behind by an earlier munged that was killed.
munged --force --key-file="$key" --socket="$WORK/munge/munge.socket" \
    --pid-file="$WORK/run/munged.pid" --log-file="$WORK/log/munged.log" \
    --seed-file="$WORK/munge/munged.seed" || fail "munged did not start"
munge -n -S "$WORK/munge/munge.socket" | unmunge -S "$WORK/munge/munge.socket" >/dev/null ||
    fail "munge cannot encode and decode a credential"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
node_idle() { [[ $(sinfo -h -N -n "$NODE" -o %T 2>/dev/null) == idle ]]; }
wait_for "node $NODE to be idle" node_idle
say "node $NODE is idle"
T_SETUP=$((SECONDS - T0))

# --- 3. the array, a cancelled task, its resubmission ------------------------------------
submit() {
    sbatch --parsable --chdir="$WORK" --output="$WORK/log/arena-%A_%a.out" "$@" \
        "$HERE/arena-array.sbatch" | cut -d';' -f1
}
job_gone() { [[ -z $(squeue -h -j "$1" -o %i 2>/dev/null) ]]; }
games_in() { if [[ -s $1 ]]; then wc -l <"$1"; else echo 0; fi; }

T_RUN=$SECONDS
array=$(submit --array=1-$SHARDS${ARRAY_LIMIT:+%$ARRAY_LIMIT}) || fail "sbatch"
say "submitted array job $array: $SHARDS tasks of $GAME, $AGENTS, $GAMES games, seed $SEED"

running_task() { victim=$(squeue -h -j "$array" -t RUNNING -o %K 2>/dev/null | head -n1); [[ -n $victim ]]; }
wait_for "a running array task" running_task
# Cancel it once it has finished a game or two, so that its shard is left partial.
has_games() { (($(games_in "$OUT_DIR/shard-$victim.jsonl") >= 1)); }
POLL=0.2 wait_for "a game in shard $victim" has_games
scancel "${array}_$victim"
say "cancelled task $victim (job ${array}_$victim) with $(games_in "$OUT_DIR/shard-$victim.jsonl") game(s) in its shard"

wait_for "array job $array to finish" job_gone "$array"
partial=$(games_in "$OUT_DIR/shard-$victim.jsonl")
say "array job $array finished; shard $victim holds $partial game(s)"

again=$(submit --array="$victim") || fail "sbatch (resubmission)"
say "resubmitted task $victim alone as job $again"
wait_for "job $again to finish" job_gone "$again"
say "job $again finished; shard $victim holds $(games_in "$OUT_DIR/shard-$victim.jsonl") game(s)"

"$ARENA" merge "$OUT_DIR"/shard-*.jsonl >"$WORK/merged.txt" 2>"$WORK/merge.err" ||
    fail "arena merge: $(cat "$WORK/merge.err")"
T_RUN=$((SECONDS - T_RUN))

# --- 4. checks and figures ------------------------------------------------------------------
errors=0
check() { say "$1: $2"; [[ $1 == ok ]] || errors=$((errors + 1)); }

# Every schedule index exactly once across the shards, each in its own shard (index % N ==
# K - 1), and one schedule length in all records. Prints a summary; exits 1 on a problem.
if coverage=$(for k in $(seq "$SHARDS"); do
    f=$OUT_DIR/shard-$k.jsonl
    [[ -s $f ]] || { echo "missing $f"; continue; }
    jq -r --arg k "$k" '"\($k) \(.index) \(.scheduled)"' "$f" || echo "unreadable $f"
done | awk -v n="$SHARDS" '
    /^(missing|unreadable)/ { print; bad++; next }
    { seen[$2]++; sched[$3] = 1; total++; if ($2 % n != $1 - 1) wrong++ }
    END {
        for (s in sched) { lengths++; scheduled = s + 0 }
        if (lengths != 1) { printf "%d different schedule lengths; ", lengths; bad++ }
        for (i = 0; i < scheduled; i++) if (!(i in seen)) missing++; else if (seen[i] > 1) twice++
        if (missing) { printf "%d scheduled games missing; ", missing; bad++ }
        if (twice) { printf "%d games recorded more than once; ", twice; bad++ }
        if (wrong) { printf "%d games in the wrong shard; ", wrong; bad++ }
        if (!bad) printf "all %d scheduled games recorded exactly once", scheduled
        exit bad > 0
    }'); then
    check ok "$coverage"
else
    check FAIL "$coverage"
fi

if [[ -s $WORK/merge.err ]]; then
    check FAIL "arena merge warned: $(cat "$WORK/merge.err")"
else
    check ok "arena merge warned about no missing game"
fi
final=$(games_in "$OUT_DIR/shard-$victim.jsonl")
if ((partial < final)); then
    check ok "cancelled shard $victim held $partial of its $final games; the resubmission played the rest"
else
    check FAIL "cancelled shard $victim already held all its $partial games: the cancel came too late to test --resume"
fi

# Each task's state and run time as the controller recorded them: "job_task task state time".
tasks=$(for job in "$array" "$again"; do scontrol show job -o "$job"; done 2>/dev/null | awk '{
    for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    printf "%s_%s %s %s %s\n", f["ArrayJobId"], f["ArrayTaskId"], f["ArrayTaskId"], f["JobState"], f["RunTime"]
}' | sort -k2n -k1)
if grep -q "^[0-9]*_$victim $victim CANCELLED " <<<"$tasks"; then
    check ok "task $victim is recorded as cancelled"
else
    check FAIL "task $victim is not recorded as cancelled"
fi
completed=$(grep -c " COMPLETED " <<<"$tasks" || true)
if ((completed == SHARDS)); then
    check ok "$SHARDS tasks completed ($((SHARDS - 1)) in the array, task $victim on resubmission)"
else
    check FAIL "$completed of $SHARDS tasks completed"
fi

say "tasks (job_task, task, state, run time):"
awk '{ print "  " $0 }' <<<"$tasks"
say "standings from arena merge:"
sed 's/^./  &/' "$WORK/merged.txt"
say "figures: $GAME, $AGENTS, $(cat "$OUT_DIR"/shard-*.jsonl | wc -l) games in $SHARDS shards;" \
    "cluster setup ${T_SETUP}s, array + cancel + resubmission + merge ${T_RUN}s, total $((SECONDS - T0))s"
((errors == 0)) || fail "$errors check(s) failed"
say "PASSED"
