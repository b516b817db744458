"""The Tokens page's own parts: its inputs, the encoded text's summary, and encode step by step.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
