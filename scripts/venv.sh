# shellcheck shell=bash
# Sourced by the scripts: create .venv and install the project with its test extra
# when it is missing or pyproject.toml changed since the last install.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  rm -f .venv/.installed-* && touch "$stamp"
fi
