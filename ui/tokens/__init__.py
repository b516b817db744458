"""The Tokens page's own parts: encode step by step and its story.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
