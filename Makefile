# Two entry points that work on a fresh clone: `make demo` and `make test`.
# Each sets up .venv on first use (torch first, pinned to the CPU build on local disk).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export SDL_VIDEODRIVER ?= dummy
export SDL_AUDIODRIVER ?= dummy

.PHONY: setup demo test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev,render,plot,sb3,train,tianshou,torchrl,rllib]'
	touch $(STAMP)

demo: setup
	$(BIN)/python examples/demo.py

test: lint
	$(BIN)/python -m pytest -n 2 -q

# What a reviewer checks first: lint, formatting, and the layers contract
# (gomoku_apps above agents above gomoku_env; see [tool.importlinter] in pyproject.toml).
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

bench: setup
	$(BIN)/python benchmarks/bench_env.py
	$(BIN)/python benchmarks/bench_rules.py
	$(BIN)/python benchmarks/bench_mcts.py
	$(BIN)/python benchmarks/bench_search.py
	$(BIN)/python benchmarks/bench_vector.py
	$(BIN)/python benchmarks/bench_selfplay.py

clean:
	rm -rf $(VENV) build *.egg-info
