# Sourced from the project's root by run.sh, test.sh and lock.sh: .venv, and the locks
# installed into it. uv comes first, from its own lock (requirements-uv.txt, hash-checked by
# pip); uv then installs the app's or the tests' lock, every file hash-checked too: exact
# versions, in seconds where pip took ~80 s (docs/installing.md).

# .venv (made with $PYTHON, python3 by default, when missing) with uv in it
venv_with_uv() {
    if [ ! -x .venv/bin/python ]; then
        "${PYTHON:-python3}" -m venv .venv
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
        -r requirements-uv.txt
}

# install_lock LOCK: requirements.txt (the app) or requirements-dev.txt (the tests)
install_lock() {
    .venv/bin/uv pip install --quiet --python .venv/bin/python --require-hashes -r "$1"
}
