"""The real-browser suite: Debian's chromium driving a Streamlit server on a free port."""
