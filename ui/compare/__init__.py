"""The Compare page's own parts: curves, bends, held-out text, two tokenizers side by side,
languages and overlap with OpenAI's vocabularies.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
