# Two commands for a fresh machine (see README): `make demo` and `make test`.
# Both create .venv with the first Python >= 3.12 that really runs (pyenv shims that fail are skipped).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export PYTENSOR_FLAGS ?= base_compiledir=$(CURDIR)/.pytensor,generated_src_dir=$(CURDIR)/.pytensor/src
# MkDocs 1.6 prints a banner about MkDocs 2 on every build; the site builds with 1.6 (pyproject)
export NO_MKDOCS_2_WARNING ?= 1

.PHONY: demo test test-fast lint docs bench venv clean

define FIND_PYTHON
for c in python3.13 python3.12 python3 $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3; do \
  if "$$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then \
    echo "$$c"; exit 0; fi; \
done; exit 1
endef

$(STAMP): pyproject.toml
	@py=$$($(FIND_PYTHON)) || { echo "error: no Python >= 3.12 found (tried python3.13, python3.12, python3, pyenv versions); install one and retry" >&2; exit 1; }; \
	echo "using $$py ($$($$py --version))"; \
	rm -rf $(VENV) && "$$py" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/judgestats correct --example chatbot-arena

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks docs
	$(VENV)/bin/mypy

# The documentation site (mkdocs.yml) into site/, strict: a broken reference, a page missing from
# the nav or a docstring griffe cannot parse fails the build, and so `make test`.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

# Two workers (the CI machine has 2 cores): the suite is CPU-bound numpy, notebooks and PyMC
# compiles. Whole files per worker (--dist loadfile), so a module's compiled models and fits
# (module-scoped fixtures) are built once, not once per worker; tests/conftest.py cuts the few
# long files without such fixtures into several groups and puts the groups with slow tests
# first, and --no-loadscope-reorder keeps that order (not xdist's: most tests first). One BLAS
# thread per process: OpenBLAS's own threads on top of two workers oversubscribe the two cores
# (the three pairwise coverage cells of tests/pairwise/test_leaderboard.py took 130 s with the
# default threads, 13 s with one, on the same loaded machine).
test test-fast: export OMP_NUM_THREADS ?= 1
test test-fast: export OPENBLAS_NUM_THREADS ?= 1
test test-fast: export MKL_NUM_THREADS ?= 1

# Everything: ruff and mypy, the docs build, then every test (the slow tier included).
test: lint docs
	$(PY) -m pytest -n 2 --dist loadfile --no-loadscope-reorder

# The fast tier: every test not marked slow (pyproject.toml; tests/conftest.py says which), no
# lint and no docs build. For quick feedback while working; `make test` is what CI runs.
test-fast: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not slow"

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(PY) "$$f" || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .pytensor site .cache/mkdocs-jupyter
