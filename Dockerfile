# Mü Online: the table server, installed as a package and run as an unprivileged user.
# Migrates its database on start, then serves on port 8000.
#   docker build -t mu-online .
#   docker run -p 8000:8000 -v mu-data:/data mu-online          # SQLite in the volume
#   docker compose up                                           # with PostgreSQL 16

# 1. The pages' bundle (make bundle; app/web/bundle.py): esbuild, locked in package-lock.json,
#    run by tools/bundle.py (standard library only) over the scripts, styles and templates.
#    Node lives in this stage only.
FROM node:20-slim AS bundle
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tools/bundle.py ./tools/
COPY app/__init__.py app/resources.py ./app/
COPY app/web/__init__.py app/web/bundle.py ./app/web/
COPY static ./static
COPY templates ./templates
RUN python3 tools/bundle.py

# 2. Build the wheel: the code plus its pages, static files, the bundle, translations and
#    migrations, with the engine compiled by mypyc (MU_COMPILED=1, hatch_build.py).  gcc and the
#    compiler (the locked mypy and hatchling from requirements/dev.txt, hashes checked) live in
#    this stage only.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
COPY requirements/dev.txt /tmp/dev.txt
RUN awk '/^[a-z]/ { keep = $1 ~ /^(mypy|mypy-extensions|typing-extensions|pathspec|librt|ast-serialize|hatchling|packaging|pluggy|tomlkit|trove-classifiers)==/ } keep && !/^ *#/' \
        /tmp/dev.txt > /tmp/compile.txt \
    && pip install --require-hashes --no-deps -r /tmp/compile.txt \
    && rm /tmp/dev.txt /tmp/compile.txt
WORKDIR /src
COPY pyproject.toml README.md alembic.ini hatch_build.py setup_mypyc.py ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY lessons ./lessons
COPY --from=bundle /src/bundle ./bundle
RUN MU_COMPILED=1 pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
    && python -c "import zipfile, glob; w, = glob.glob('/wheels/*.whl'); \
names = zipfile.ZipFile(w).namelist(); \
assert any(n.endswith('.so') for n in names), 'engine not compiled'; \
assert 'app/bundle/manifest.json' in names, 'no bundle'"

# 3. The image: the locked dependencies (hashes checked), then the wheel; no sources, no
#    compiler (the compiled engine needs only the C library the image already has).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements/run.txt /tmp/run.txt
RUN pip install --require-hashes --no-deps -r /tmp/run.txt && rm /tmp/run.txt
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl \
    && rm -rf /tmp/wheels \
    && useradd --system --create-home --uid 10001 mu \
    && mkdir -p /data \
    && chown mu /data

USER mu
# An empty folder: the app runs from the installed package, nothing here shadows it.
WORKDIR /home/mu
ENV DATABASE_URL=sqlite:////data/mu.db
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# SIGTERM starts the graceful drain (up to 10 s, app/__main__.py); give it time to finish.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "app", "--host", "0.0.0.0", "--port", "8000"]
