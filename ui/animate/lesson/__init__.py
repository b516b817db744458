"""Animate's lesson file: a run's first merges on a passage, as one offline HTML file.

Its steps as data (`steps`), the page (`page`, with `assets/`: its CSS and JS) and the
download expander (`download`).
"""
