# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run prod test setup install messages migrate demo lint format typecheck e2e clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

messages: install
	$(PY) manage.py compiletranslations

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

setup: install messages migrate demo

# Web server, Celery worker and Celery beat on the embedded default; Ctrl-C stops all three.
run: setup
	$(PY) manage.py runall

# Production (README, "Production"): DEBUG=0 and the variables it lists in the environment.
# ROLE=web (or worker, beat, or a comma list) on machines that run only some of them.
ADDR ?= 0.0.0.0:8000
WEB_WORKERS ?= 2
DB_POOL ?= 8
ROLE ?= all
prod: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py compiletranslations
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py runall --production --role $(ROLE) --addr $(ADDR) --workers $(WEB_WORKERS) --db-pool $(DB_POOL)

test: install messages
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) manage.py makemigrations --check --dry-run

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

typecheck: install
	$(PY) -m mypy baccarat wallet casino

clean:
	rm -rf $(VENV) var
