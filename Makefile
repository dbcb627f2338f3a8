# make run: set everything up and serve the site; make test: the test tools, the embedded
# database when DATABASE_URL is unset, then the suite (it makes its own test database).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
MANAGE := $(BIN)/python manage.py

# .env holds the generated secret key. It is not included here: the settings and
# site/database.py read it for the variables the shell has not set, so a variable given on
# the command line (DATABASE_URL=… make run) wins over one written in .env.

.PHONY: install install-dev run test setup prepare db stop-db lint format bench soak superuser

# install: what the site needs (requirements.txt); install-dev adds the test, lint and bench
# tools (requirements-dev.txt) for the targets that use them.
install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

.env:
	@$(PYTHON) -c "import secrets; print('DJANGO_SECRET_KEY=' + secrets.token_urlsafe(50))" > $@
	@echo "wrote a new secret key to .env"

db: install
	@$(BIN)/python site/database.py start >/dev/null

# Migrate, load the topic vocabulary and the dumps (idempotent), gather static files.
prepare:
	$(MANAGE) migrate --noinput --verbosity 0
	$(MANAGE) load_topics --verbosity 0
	$(MANAGE) load_papers fixtures/
	$(MANAGE) collectstatic --noinput --verbosity 0

setup: install .env db prepare

# Ctrl-C stops gunicorn and, if this run started it, the embedded database.
run: install .env
	@started=$$($(BIN)/python site/database.py start); \
	trap 'if [ "$$started" = started ]; then $(BIN)/python site/database.py stop; fi' EXIT; \
	trap 'exit 130' INT TERM; \
	$(MAKE) --no-print-directory prepare && \
	echo "Serving on http://$(HOST):$(PORT)/ (Ctrl-C stops)" && \
	DJANGO_HTTPS=0 $(BIN)/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) wsgi:application

# The suite needs no development data: pytest-django creates and fills its own test database.
test: install-dev .env db
	DJANGO_HTTPS=0 $(BIN)/python -m pytest $(PYTEST_ARGS)

stop-db:
	@if [ -x $(BIN)/python ]; then $(BIN)/python site/database.py stop; else echo "no venv: nothing to stop"; fi

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

superuser: setup
	$(MANAGE) createsuperuser

bench: install-dev setup
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Load and fault run (bench/soak.py): its own embedded PostgreSQL and gunicorn; 64 clients for
# 60 s, then the same load while PostgreSQL is stopped and started. SOAK_ARGS="--duration 20".
soak: install-dev .env
	$(BIN)/python bench/soak.py $(SOAK_ARGS)
