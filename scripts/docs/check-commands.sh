#!/usr/bin/env bash
# Runs the commands of the documentation: every command line of the ```sh blocks of README.md
# and docs/**/*.md (lines ending in \ joined to the next). A command of the form
# `cargo run [--release] [-p PACKAGE] --example NAME [-- ARGS]` (alone or in a pipeline) runs
# as the built program target/release/examples/NAME ARGS, under a time limit.
#
#   PASS          it exited with 0, or it was still running at the time limit and had printed
#                 no error to stderr (it accepted its arguments and started working)
#   FAIL          anything else; the script then exits with 1
#   SKIP          it needs the peers ($P/...) and they are not there; it reads a file (--data,
#                 --start, --openings, net=, weights=, book=, cmd=./PROGRAM) that neither the repository nor
#                 an earlier command of its block made (a long run the guide shows, cut at the
#                 time limit); or (--skip-missing) its
#                 program is not built
#   NOT CHECKED   any other command: cargo build/test/bench, python, pip, shell loops
#
# Each code block runs in a fresh temporary directory, with the binaries by absolute path: the
# repository files a command names are copied there first, PLY_EGDB points into it, and
# SLURM_ARRAY_TASK_ID is 1 unless set. `NAME=value` lines set variables for the rest of their
# page (P=$HOME/.cache/ply-peers). A command ending in & runs in the background until its
# block ends. Nothing is written to the repository.
#
# Usage: scripts/docs/check-commands.sh [--timeout S] [--bin DIR] [--skip-missing] [--list]
#                                       [--match TEXT] [--jobs N] [FILE.md ...]
#   --timeout S      seconds each command may run (default 10, or $DOCS_TIMEOUT)
#   --bin DIR        where the built examples are (default target/release/examples)
#   --skip-missing   a program that is not built is SKIP, not FAIL
#   --list           print the commands and how each would be checked; run nothing
#   --match TEXT     check only the commands that contain TEXT
#   --jobs N         check N files at a time (default 1); a file's lines print when it ends
#   FILE.md          check these files instead of README.md and docs/**/*.md
#
# Build the programs first: cargo build --release --examples
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 - "$repo" "$0" "$@" <<'PY'
import argparse, concurrent.futures, glob, os, re, shlex, shutil, signal, subprocess, sys, tempfile, threading, time, uuid

repo, script = sys.argv[1], sys.argv[2]
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a closed output pipe ends the script quietly


def usage():
    lines = open(script).read().split("\n")[1:]
    out = []
    for line in lines:
        if not line.startswith("#"):
            break
        out.append(line[2:])
    return "\n".join(out)


ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("--timeout", type=float, default=float(os.environ.get("DOCS_TIMEOUT", "10")))
ap.add_argument("--bin", default=os.path.join(repo, "target", "release", "examples"))
ap.add_argument("--skip-missing", action="store_true")
ap.add_argument("--list", action="store_true")
ap.add_argument("--match", default=None)
ap.add_argument("--jobs", type=int, default=1)
ap.add_argument("-h", "--help", action="store_true")
ap.add_argument("files", nargs="*")
args = ap.parse_args(sys.argv[3:])
if args.help:
    print(usage())
    sys.exit(0)
bindir = os.path.abspath(args.bin)

if args.files:
    files = [os.path.abspath(f) for f in args.files]
else:
    files = [os.path.join(repo, "README.md")]
    files += sorted(glob.glob(os.path.join(repo, "docs", "**", "*.md"), recursive=True))

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$")
CARGO_RUN = re.compile(r"cargo\s+run((?:\s+(?:--release|--quiet|-q|(?:-p|--package)\s+\S+))*)"
                       r"\s+--example\s+(\S+)((?:\s+(?:--release|--quiet|-q|(?:-p|--package)\s+\S+))*)"
                       r"(\s+--(?=\s|$))?")
OTHER_CARGO = re.compile(r"(^|[\s;&|(])cargo\s")
ERROR = re.compile(r"^\s*error\b|error:|panicked", re.IGNORECASE | re.MULTILINE)
PEER = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(/[^\s\"']+)")


def blocks(path):
    """The commands of the ```sh blocks of a file: (block number, line, command)."""
    out, inside, fence, number = [], False, "", 0
    pending, start = "", 0
    for i, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        m = FENCE.match(raw)
        if not inside:
            if m:
                inside, fence, lang = True, m.group(2), m.group(3)
                number += 1
                runnable = lang in ("sh", "bash", "shell", "console")
            continue
        if m and raw.strip().startswith(fence) and not m.group(3):
            inside = False
            continue
        if not runnable:
            continue
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = i
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append((number, start, pending + line))
        pending = ""
    return out


def label(cmd):
    cmd = " ".join(cmd.split())
    return cmd if len(cmd) <= 110 else cmd[:107] + "..."


def copy_inputs(cmd, workdir):
    """Copies the repository files a command names into its directory, and makes the
    directories of the repository paths it names, so that it reads and writes there."""
    try:
        words = shlex.split(cmd, comments=True)
    except ValueError:
        words = cmd.split()
    for w in words:
        for token in [w] + w.split("=")[1:]:
            if token.startswith(("-", "/", "$", "~")) or "/" not in token or "*" in token:
                continue
            src = os.path.join(repo, token)
            dst = os.path.join(workdir, token)
            if os.path.isfile(src) and not os.path.exists(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy(src, dst)
            elif os.path.isdir(os.path.dirname(src)):
                os.makedirs(os.path.dirname(dst), exist_ok=True)


def marked_processes(marker):
    """The processes that carry this run's marker in their environment: the ones it started."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            env = open(f"/proc/{entry}/environ", "rb").read()
        except OSError:
            continue
        if marker in env:
            pids.append(int(entry))
    return pids


def stop(proc, marker):
    """Ends a command: its process group, then whatever else it started (engine processes in
    process groups of their own), each by its id."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        for pid in marked_processes(marker):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            continue
        if not marked_processes(marker):
            break


def last_error(text):
    for line in text.split("\n"):
        if ERROR.search(line):
            return line.strip()[:160]
    return ""


results = {"PASS": 0, "FAIL": 0, "SKIP": 0, "NOT CHECKED": 0}
results_lock = threading.Lock()
local = threading.local()  # .lines: where report() collects a file's lines under --jobs
root = tempfile.mkdtemp(prefix="ply-docs-")


def report(status, where, cmd, detail=""):
    with results_lock:
        results[status] += 1
    tail = f"  ({detail})" if detail else ""
    line = f"{status:<11}  {where}  {label(cmd)}{tail}"
    if getattr(local, "lines", None) is not None:
        local.lines.append(line)
    else:
        print(line, flush=True)


OUTPUT = re.compile(r"(?:--out[= ]|--svg[= ]|>\s*)([^\s;|&]+)")


INPUT = re.compile(
    r"(?:--data|--start|--openings)[= ](\S+)|(?:net|weights|book)=([^,\s]+)|cmd=(\./[^\s\"']+)"
)


def inputs(cmd):
    """The files a command reads, as it names them (--data FILE, net=FILE, ...)."""
    found = []
    for m in INPUT.finditer(cmd):
        name = m.group(1) or m.group(2) or m.group(3)
        if name not in ("off", "on") and not name.startswith("$"):
            found.append(name)
    return found


def outputs(cmd):
    """The files a command writes, as it names them (--out FILE, --svg FILE, > FILE)."""
    return [os.path.basename(m.group(1)) for m in OUTPUT.finditer(cmd)]


def outcome(proc, err_path, timed_out, elapsed):
    err = open(err_path, errors="replace").read()
    if not timed_out and proc.returncode == 0:
        return "PASS", f"exit 0, {elapsed:.1f} s"
    if timed_out and not ERROR.search(err):
        return "PASS", f"running at {args.timeout:g} s"
    reason = last_error(err) or (err.strip().split("\n")[-1][:160] if err.strip() else "")
    code = "killed at the time limit" if timed_out else f"exit {proc.returncode}"
    return "FAIL", f"{code}: {reason}" if reason else code


def check_file(path):
    """Checks the commands of one file; report() collects its lines for the caller."""
    rel = os.path.relpath(path, repo)
    assigns = {}
    current_block, workdir, background = None, None, []
    unfinished = set()  # files of this block whose writers were still running

    def end_block():
        for proc, where, cmd, err_path, marker, started in background:
            timed_out = proc.poll() is None
            status, detail = outcome(proc, err_path, timed_out, time.time() - started)
            if timed_out:
                detail = detail.replace(f"running at {args.timeout:g} s", "running in the background")
                stop(proc, marker)
            report(status, where, cmd, detail)
        background.clear()

    for number, line, cmd in blocks(path):
        where = f"{rel}:{line}"
        if args.match and args.match not in cmd:
            continue
        if number != current_block:
            end_block()
            unfinished.clear()
            current_block = number
            workdir = tempfile.mkdtemp(prefix=f"{number:03d}-", dir=root)
        m = ASSIGN.match(cmd.strip())
        if m:
            assigns[m.group(1)] = m.group(2)
            continue
        runs = list(CARGO_RUN.finditer(cmd))
        rest = CARGO_RUN.sub(" ", cmd)
        if not runs or OTHER_CARGO.search(rest):
            if args.list:
                print(f"{'NOT CHECKED':<11}  {where}  {label(cmd)}")
                results["NOT CHECKED"] += 1
            else:
                report("NOT CHECKED", where, cmd)
            continue
        env = dict(os.environ)
        env.setdefault("SLURM_ARRAY_TASK_ID", "1")
        env["PLY_EGDB"] = os.path.join(workdir, "egdb")
        env["NO_COLOR"] = "1"
        prelude = "".join(f"{k}={v}; " for k, v in assigns.items())
        # The peers: a $VAR/path that does not exist skips the command.
        missing = []
        for pm in PEER.finditer(cmd):
            value = subprocess.run(["bash", "-c", prelude + f'printf %s "${pm.group(1)}"'],
                                   env=env, capture_output=True, text=True).stdout
            if value and not value.startswith(("/", "~")):
                continue  # not a directory, such as SLURM_ARRAY_TASK_ID in a file name
            if not value or not os.path.exists(os.path.expanduser(value + pm.group(2))):
                missing.append(f"${pm.group(1)}{pm.group(2)}")
        names = [r.group(2) for r in runs]
        absent = [n for n in names if not os.access(os.path.join(bindir, n), os.X_OK)]
        if args.list:
            how = "SKIP" if missing else "RUN"
            print(f"{how:<11}  {where}  {label(cmd)}")
            continue
        if missing:
            report("SKIP", where, cmd, f"needs {', '.join(missing)}")
            continue
        if absent:
            status = "SKIP" if args.skip_missing else "FAIL"
            report(status, where, cmd,
                   f"not built: {', '.join(os.path.join(os.path.relpath(bindir, repo), n) for n in absent)}")
            continue
        copy_inputs(cmd, workdir)
        absent_inputs = [f for f in inputs(cmd)
                         if "*" not in f and not os.path.exists(os.path.join(workdir, f))]
        if absent_inputs:
            report("SKIP", where, cmd,
                   f"needs {absent_inputs[0]}, which no command above finished making")
            continue
        shell = CARGO_RUN.sub(lambda r: shlex.quote(os.path.join(bindir, r.group(2))), cmd)
        bg = shell.rstrip().endswith("&") and not shell.rstrip().endswith("&&")
        if bg:
            shell = shell.rstrip()[:-1]
        marker = "PLY_DOCS_CHECK=" + uuid.uuid4().hex
        env["PLY_DOCS_CHECK"] = marker.split("=", 1)[1]
        err_path = os.path.join(workdir, f".stderr-{line}")
        with open(os.devnull, "rb") as devnull, open(err_path, "wb") as err, \
                open(os.path.join(workdir, f".stdout-{line}"), "wb") as out:
            started = time.time()
            proc = subprocess.Popen(["bash", "-c", prelude + shell], cwd=workdir, env=env,
                                    stdin=devnull, stdout=out, stderr=err,
                                    start_new_session=True)
            if bg:
                background.append((proc, where, cmd, err_path, marker.encode(), started))
                time.sleep(1)
                continue
            try:
                proc.wait(timeout=args.timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True
            elapsed = time.time() - started
            stop(proc, marker.encode())
        status, detail = outcome(proc, err_path, timed_out, elapsed)
        if timed_out and status == "PASS":
            unfinished.update(outputs(cmd))
        # A command that reads what an earlier one was still writing when cut at the time
        # limit may find it empty or short, whatever its error says.
        reads = [f for f in unfinished if f in cmd and f not in outputs(cmd)]
        waited = [f for f in unfinished if f in detail or (unfinished and "*" in cmd)] + reads
        if status == "FAIL" and waited:
            status = "SKIP"
            detail = f"needs {waited[0]}, which a command above was still writing at the time limit"
        report(status, where, cmd, detail)
    end_block()


try:
    if args.list or args.jobs <= 1:
        for path in files:
            check_file(path)
    else:
        # Files run side by side (each block already has its own directory; no two pages
        # listen on one fixed port); each file's lines print together when it ends.
        def run_file(path):
            local.lines = []
            try:
                check_file(path)
            finally:
                lines, local.lines = local.lines, None
            return lines

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for lines in pool.map(run_file, files):
                print("\n".join(lines), flush=True)
finally:
    shutil.rmtree(root, ignore_errors=True)

summary = ", ".join(f"{n} {k.lower()}" for k, n in results.items())
print(f"\n{summary}")
sys.exit(1 if results["FAIL"] else 0)
PY
