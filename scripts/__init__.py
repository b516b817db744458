"""Scripts run from the project's root as modules: `python -m scripts.make_lesson`,
`python -m scripts.screenshots pages`. (`run.sh` and `test.sh` are the two commands.)"""
