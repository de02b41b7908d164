# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TYPECHECK := build/typecheck

$(BIN)/sessiontui: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: demo test lint typecheck
demo: $(BIN)/sessiontui
	$(BIN)/python -m compileall -q project_memory collectors tui  # bytecode, as a wheel has
	$(BIN)/sessiontui demo

# The tests in parallel (xdist; `auto` is two workers a core, see tests/conftest.py); worksteal keeps
# a long test from ending last. Bytecode is written even where the shell says not to
# (PYTHONDONTWRITEBYTECODE): without it every worker rewrites and compiles all 275 test modules
# on every run (5 s of CPU each), and every `sessiontui` the tests start compiles its imports.
test: lint typecheck
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto --dist worksteal

lint: $(BIN)/sessiontui
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# mypy cannot follow setuptools' package-dir mapping: check the three layers through a link tree
# that spells their installed names (sessiontui.project_memory, sessiontui.collectors, sessiontui.tui).
typecheck: $(BIN)/sessiontui
	mkdir -p $(TYPECHECK)/sessiontui
	for package in project_memory collectors tui; do ln -sfn $(CURDIR)/$$package $(TYPECHECK)/sessiontui/$$package; done
	MYPYPATH=$(TYPECHECK) $(BIN)/mypy -p sessiontui.project_memory -p sessiontui.collectors -p sessiontui.tui
