"""The Train page's own parts: the form, the tie-rule choice, progress, results and downloads.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
