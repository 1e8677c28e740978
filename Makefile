# The two commands in the README: `make run` and `make test`. Each sets up what is
# missing (Debian packages, the virtual environment) and then does its job.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
BIN    := $(VENV)/bin
PURSER_APP_ARGS ?=

.PHONY: run test lint setup-run setup-test screenshots bench firmware clean

run: setup-run
	$(BIN)/purser app $(PURSER_APP_ARGS)

test: setup-test lint
	PURSER_NO_SKIP=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

# Style, formatting and types of the whole tree (settings in pyproject.toml).
lint: setup-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

setup-run:
	PYTHON=$(PYTHON) tools/system-deps.sh run
	@$(MAKE) --no-print-directory $(VENV)/.installed-run

setup-test:
	PYTHON=$(PYTHON) tools/system-deps.sh test
	@$(MAKE) --no-print-directory $(VENV)/.installed-dev

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Purser needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-run

screenshots: setup-test
	$(BIN)/python tools/screenshots.py

bench: setup-test
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The balance firmware (firmware/build/purser_balance.hex), its host-side protocol tests
# and the simulator rig; `make -C firmware flash PORT=/dev/ttyUSB0` programs a board.
firmware:
	PYTHON=$(PYTHON) tools/system-deps.sh test
	$(MAKE) -C firmware all test
	$(MAKE) -C firmware/sim all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
