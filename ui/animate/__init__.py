"""The Animate page's own parts: the passage at a step, playback, charts, the pair table,
the quiz and the lesson file.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
