# Both targets bootstrap .venv on a fresh machine (only python3 and make needed).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
STACK ?= dev

.PHONY: test plan bench screenshot clean

$(STAMP): pyproject.toml setup.py constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# The tested versions (constraints.txt); .ci/newest-releases tries the newest ones.
	$(PY) -m pip install --quiet -e '.[dev]' -c constraints.txt
	# Byte-compiled as pip compiles a regular install: where PYTHONDONTWRITEBYTECODE is set (CI images), every run
	# of gkecap and of its policy pack would compile each module again (0.12 CPU-s of a one-slice plan, measured).
	$(PY) -m compileall -q gkecap components policies
	touch $(STAMP)

test: $(STAMP)
	$(VENV)/bin/pytest -q -n auto

plan: $(STAMP)
	$(VENV)/bin/gkecap plan --stack $(STACK)

bench: $(STAMP)
	$(PY) benchmarks/run.py

# docs/report.png: the bundled prod stack's report.html in headless Chromium (Debian: chromium, chromium-driver).
screenshot: $(STAMP)
	$(PY) docs/screenshot.py --stack prod --out docs/report.png

clean:
	rm -rf $(VENV) out .pytest_cache
