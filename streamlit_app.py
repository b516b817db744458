"""BPE Merge Explorer: the entry file. It routes to the pages in `pages/` (ui/shell.py).

streamlit run streamlit_app.py
"""

from ui.shell import run_app

run_app()
