#!/usr/bin/env bash
# CI for the Python package: on a fresh machine with Python 3.8+ (with its venv module), the
# Rust toolchain and access to PyPI and crates.io, build and install `ply-games` into a new
# virtualenv and run its pytest suite.
#
#   python/ci.sh                 # from anywhere; exits non-zero on any failure
#
# The extension is built with cargo's `dev` profile (opt-level 1, the profile `cargo test`
# uses) and ply-python's `workspace-features`, so after `cargo test --workspace` only the
# bindings and pyo3 compile, instead of nearly 5 minutes for a release build on 2 cores; the
# tests take as long either way.
# PLY_PYTHON_PROFILE=release builds as `pip install ./python` does for users. Cargo reuses the
# workspace's target/ directory (or $CARGO_TARGET_DIR) between runs. Set PLY_VENV to keep
# the virtualenv somewhere (it is created afresh either way); by default it is a temporary
# directory, removed at the end.
set -euo pipefail

python_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$python_dir")"
cd "$root"

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
    echo "error: $python not found (set PYTHON to a Python 3.8+ interpreter)" >&2
    exit 1
fi

if [[ -n "${PLY_VENV:-}" ]]; then
    venv="$PLY_VENV"
    rm -rf "$venv"
else
    venv="$(mktemp -d "${TMPDIR:-/tmp}/ply-games-venv.XXXXXX")"
    trap 'rm -rf "$venv"' EXIT
fi

echo "== python -m venv $venv ($("$python" --version 2>&1))"
if ! "$python" -m venv "$venv"; then
    echo "error: could not create a virtualenv (on Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1

profile="${PLY_PYTHON_PROFILE:-dev}"
features=""
if [[ $profile == dev ]]; then
    # The dependencies as `cargo test --workspace` compiled them: ply-python's
    # `workspace-features` turns on what the workspace's dev-dependencies add to them. A crate
    # listed here is compiled again (minutes): add its features to that list.
    # maturin's --features replaces the list in pyproject.toml ([tool.maturin] features), so
    # that list comes first.
    listed=$(sed -n 's/^features = \[\(.*\)\]$/\1/p' "$python_dir/pyproject.toml" | tr -d '" ')
    features="--features ${listed:+$listed,}workspace-features"
    tree() { cargo tree "$@" -f '{p} [{f}]' --prefix none --quiet | sed 's/ (.*)//' | sort -u; }
    if tested=$(tree --workspace -e normal,build,dev) &&
        ours=$(tree -p ply-python --features workspace-features,python -e normal,build); then
        differ=$(comm -13 <(echo "$tested") <(echo "$ours") | while read -r name version rest; do
            if [[ $name != ply-python ]] && grep -q "^$name $version " <<<"$tested"; then echo "   $name $version $rest"; fi
        done)
        if [[ -n $differ ]]; then
            echo "warning: the extension's dependencies differ in features from the test build's:"
            echo "$differ"
        fi
    fi
fi
echo "== pip install ./python pytest (builds the Rust extension with maturin, profile $profile)"
start=$SECONDS
MATURIN_PEP517_ARGS="--profile $profile $features" "$venv/bin/python" -m pip install ./python pytest
echo "   installed in $((SECONDS - start))s"

echo "== pytest python/tests"
# Run from the repository root against the installed package (never the source tree's
# ply_games/, which has no compiled _native module).
status=0
"$venv/bin/python" -m pytest "$python_dir/tests" || status=$?
if [[ $status -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
