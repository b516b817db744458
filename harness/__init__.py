"""What the tests, the benchmarks and the scripts share to drive the real app.

The app on a free loopback port and Debian's Chromium (`app_server`), a Streamlit session
spoken over its own websocket protocol (`ws_client`, with uploads in `ws_upload`), and the
figures a class's pages are read for (`class_figures`). Imports `explorer` and Streamlit's
wire format (through `ui.server.streamlit_internals`), never `bench`.
"""
