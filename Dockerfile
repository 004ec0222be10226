# Mü Online: the table server. Migrates its database on start, then serves on port 8000.
#   docker build -t mu-online .
#   docker run -p 8000:8000 -v mu-data:/data mu-online          # SQLite in the volume
#   docker compose up                                           # with PostgreSQL 16
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/mu

# Sources first, then one install: the package (engine + app) with its runtime dependencies.
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install . \
    && useradd --system --create-home mu \
    && mkdir -p /data \
    && chown mu /data

USER mu
# Run from /srv/mu: `python -m app` finds alembic.ini and migrations/ beside the app package.
ENV DATABASE_URL=sqlite:////data/mu.db
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["python", "-m", "app", "--host", "0.0.0.0", "--port", "8000"]
