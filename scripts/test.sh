#!/usr/bin/env bash
# Install what the tests need into .venv, then lint and run every test.
# Usage: bash scripts/test.sh [--quick] [extra pytest arguments]
#
# --quick, for the edit-test loop: the engine, AppTest and doctests, no browser tests (so no
# chromium), `ruff format --check` only on the Python files changed against git HEAD or
# untracked, and pip only when requirements*.txt or pyproject.toml changed since the
# last install. ruff check and lint-imports still run on everything. CI runs without it.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
if [ "${1:-}" = "--quick" ]; then
    quick=true
    shift
fi

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
# what was installed from: a quick run skips pip while these files are as they were
stamp=.venv/.installed-from
wanted=$(cat requirements-uv.txt requirements.txt requirements-dev.txt pyproject.toml | sha256sum)
if ! $quick || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    venv_with_uv
    install_lock requirements-dev.txt
    .venv/bin/uv pip install --quiet --python .venv/bin/python --no-deps -e .
    echo "$wanted" >"$stamp"
fi

# Debian's packages some tests drive: chromium (the browser tests), redis-server (the class
# store's Redis backend, tests/app/classroom) and nginx (the proxy of run.sh --processes).
# Without one, its tests skip, or fail under CI=true. RUNLEVEL=1: installing them starts
# no service (the tests start their own, on free loopback ports, and stop them).
debs=()
command -v redis-server >/dev/null 2>&1 || debs+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || debs+=(nginx)
if ! $quick && ! command -v chromium >/dev/null 2>&1; then
    debs+=(chromium)
fi
if [ "${#debs[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's ${debs[*]} for the tests (apt-get install ${debs[*]})"
    if ! { apt-get -o DPkg::Lock::Timeout=300 update -qq \
        && RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
            install -y -qq "${debs[@]}"; } >/dev/null 2>&1; then
        echo "Could not install ${debs[*]}; the tests that need them will say so" >&2
    fi
fi

.venv/bin/ruff check .
if $quick && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # only what this change touched: changed against HEAD, or new and not ignored
    mapfile -t touched < <({
        git diff --name-only --diff-filter=d HEAD -- '*.py'
        git ls-files --others --exclude-standard -- '*.py'
    } | sort -u)
    if [ "${#touched[@]}" -gt 0 ]; then
        .venv/bin/ruff format --check "${touched[@]}"
    fi
else
    .venv/bin/ruff format --check .
fi
# the import contracts in pyproject.toml: a wrong import fails here, named
.venv/bin/lint-imports --no-cache

# The type checker (pyproject.toml [tool.mypy]: strict on explorer/, the default rules and
# untyped bodies on ui/, pages/, harness/ and scripts/) runs beside the tests, on what
# the test workers leave of the two cores (~30 s of one core, cold); its verdict is read
# after them, and either failing fails the run.
.venv/bin/mypy >.venv/mypy.log 2>&1 &
mypy_pid=$!
typecheck() {
    if wait "$mypy_pid"; then
        tail -n 1 .venv/mypy.log
    else
        cat .venv/mypy.log
        echo "mypy: the type check failed (above)" >&2
        return 1
    fi
}

# Under --dist loadfile, tests/conftest.py hands each browser test out on its own, longest
# first, and keeps every other file on one worker. Without the browser: two workers, one
# per core. With it, three: a browser test's worker often waits on Chromium and its
# server (three finished in 466 s where two took ~500; four were no sooner, 476 s, and
# the class's browser test timed out at their load).
status=0
if $quick; then
    .venv/bin/python -m pytest -n 2 --dist loadfile --ignore=tests/browser "$@" || status=$?
    typecheck || status=1
else
    .venv/bin/python -m pytest -n 3 --dist loadfile --ignore=tests/browser/test_class_live.py \
        --ignore=tests/browser/test_concurrency.py \
        --ignore=tests/browser/test_class_processes.py "$@" || status=$?
    typecheck || status=1
    if [ "$status" -ne 0 ]; then
        exit "$status"
    fi
    if [ $# -eq 0 ]; then
        # A class's live test (a teacher and three students in Chromium, ~45 s) alone, after
        # the rest: beside three busy workers a student's page missed steps (1 CI run of 2
        # in session 11), a room's timing, not a wrong result; it passes loaded by two
        # busy-loop processes (3 of 3) and runs here as a class would, on a quiet server.
        # Ten sessions training at once in one Chromium (~5 min beside three workers) is a
        # load test of the server, so it too runs here, alone: beside the workers one of its
        # ten pages did not answer a click in 90 s (stop 39's CI), the machine's load, not
        # the server's.
        # A class on three processes behind nginx (three Streamlit processes, Redis and
        # three pages in Chromium, one process killed) is a class too: alone, here.
        .venv/bin/python -m pytest -p no:xdist -q tests/browser/test_class_live.py \
            tests/browser/test_concurrency.py tests/browser/test_class_processes.py
    fi
fi
exit "$status"
