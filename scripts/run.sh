#!/usr/bin/env bash
# Install what the app needs into .venv and start it on http://127.0.0.1:8501
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
# uv from its own lock (pip checks its hashes), then the app's lock through uv: exact
# versions, every file hash-checked (docs/installing.md)
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
    -r requirements-uv.txt
.venv/bin/uv pip install --quiet --python .venv/bin/python --require-hashes -r requirements.txt
# the server loads GPT-2's, GPT-4's and GPT-4o's vocabularies from its first session on,
# each in a child Python, however it is started (ui/session/run_cache.py preload_bundled;
# BPE_EXPLORER_PRELOAD=0 turns it off)
exec .venv/bin/python -m streamlit run streamlit_app.py "$@"
