# Mü Online: the table server, installed as a package and run as an unprivileged user.
# Migrates its database on start, then serves on port 8000.
#   docker build -t mu-online .
#   docker run -p 8000:8000 -v mu-data:/data mu-online          # SQLite in the volume
#   docker compose up                                           # with PostgreSQL 16

# 1. Build the wheel: the code plus its pages, static files, translations and migrations.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip wheel --no-deps --wheel-dir /wheels .

# 2. The image: the locked dependencies (hashes checked), then the wheel; no sources.
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
