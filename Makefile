# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/sessiontui: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: demo test lint
demo: $(BIN)/sessiontui
	$(BIN)/python -m compileall -q project_memory collectors tui  # bytecode, as a wheel has
	$(BIN)/sessiontui demo

test: $(BIN)/sessiontui
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(BIN)/sessiontui
	$(BIN)/ruff check .
