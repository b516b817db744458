#!/usr/bin/env bash
# Install what the app needs into .venv and start it on http://127.0.0.1:8501
#
# bash scripts/run.sh --processes N [--port 8501] [--address 127.0.0.1] [--state .stack]
# serves the same address from N Streamlit processes behind Debian's nginx, the classes
# shared through Redis (scripts/stack/launch.py; docs/several-machines.md)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
venv_with_uv
install_lock requirements.txt
# the server loads GPT-2's, GPT-4's and GPT-4o's vocabularies from its first session on,
# each in a child Python, however it is started (ui/session/run_cache.py preload_bundled;
# BPE_EXPLORER_PRELOAD=0 turns it off)
for arg in "$@"; do
    case "$arg" in
    --processes | --processes=*) exec .venv/bin/python -m scripts.stack "$@" ;;
    esac
done
exec .venv/bin/python -m streamlit run streamlit_app.py "$@"
