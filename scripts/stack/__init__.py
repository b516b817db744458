"""Several Streamlit processes behind nginx, with Redis: `bash scripts/run.sh --processes N`."""
