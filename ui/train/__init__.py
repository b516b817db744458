"""The Train page's own parts: the form (its state, widgets and the run it asks for), the
tie-rule choice, progress, results, the merge log and downloads, uploaded tokenizer files.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
