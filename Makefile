# Two entry points that work on a fresh clone: `make demo` and `make test`.
# Each sets up .venv on first use (torch first, pinned to the CPU build on local disk).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export SDL_VIDEODRIVER ?= dummy
export SDL_AUDIODRIVER ?= dummy
# mkdocs-material prints a banner about its successor on every build; the build is what counts.
export NO_MKDOCS_2_WARNING ?= 1

.PHONY: setup browser demo test lint docs shell bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev,render,plot,sb3,train,alphazero,ppo,docs,web,webtest,ray,tianshou,torchrl,rllib]'
	touch $(STAMP)
	@echo "Set up .venv. For the gomoku command: source $(BIN)/activate (or run $(BIN)/gomoku)"

demo: setup
	$(BIN)/python examples/demo.py
	@echo "Next: source $(BIN)/activate, then gomoku --help (or run $(BIN)/gomoku)"

# The gomoku command is in .venv/bin: this says how to reach it from your shell.
shell: setup
	@echo "Run: source $(BIN)/activate   (then gomoku --help; deactivate to leave)"

# Debian's Chromium for the browser tests of `gomoku serve` (installed when we are root;
# without it those tests are skipped and say why).
browser:
	@if [ -z "$(SKIP_BROWSER)" ] && ! command -v chromium >/dev/null \
		&& [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "make test: installing Debian's chromium system-wide (apt-get) for the browser tests of gomoku serve; skip with: make test SKIP_BROWSER=1"; \
		(apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 \
			|| echo "make test: chromium could not be installed; the browser tests will be skipped"; \
	fi

# Both tiers: pytest alone leaves the slow-marked tests out (pyproject.toml).
test: lint docs browser
	$(BIN)/python -m pytest -n 2 -q -m "slow or not slow"

# The documentation site (mkdocs.yml, pages in docs/) into site/; warnings are errors.
docs: setup
	$(BIN)/mkdocs build --strict --quiet

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
	$(BIN)/python benchmarks/bench_web.py

clean:
	rm -rf $(VENV) build site *.egg-info
	find agents gomoku_env -name '*.nb[ic]' -delete  # numba's caches (stale after a move)
