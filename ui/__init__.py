"""The app's support layer: the only place that knows both Streamlit and the engine."""
