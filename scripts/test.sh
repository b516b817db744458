#!/usr/bin/env bash
# Install what the tests need into .venv, then lint and run every test.
# Usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .

# the browser tests drive Debian's chromium (without it they skip, or fail under CI=true)
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's chromium for the browser tests (apt-get install chromium)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
        >/dev/null 2>&1; then
        echo "Could not install chromium; the browser tests will say so" >&2
    fi
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
# the import contracts in pyproject.toml: a wrong import fails here, named
.venv/bin/lint-imports --no-cache
# two workers, one per core; a test file stays on one worker (its browser server with it)
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
