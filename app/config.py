"""Settings from the environment (pydantic-settings).

``DATABASE_URL`` may be a plain ``sqlite:///path.db`` or ``postgresql://user@host/db`` URL, the
way people write them; the app picks its async driver (aiosqlite, psycopg) itself, and Alembic
gets the matching synchronous URL.
"""

from __future__ import annotations

from typing import Any, Literal

import limits
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url

_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+psycopg",
    "postgresql": "postgresql+psycopg",
}
_SYNC_DRIVERS = {
    "sqlite": "sqlite",
    "sqlite+aiosqlite": "sqlite",
    "postgres": "postgresql+psycopg",
    "postgresql": "postgresql+psycopg",
}


def _with_scheme(url: str, table: dict[str, str]) -> str:
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    return f"{table.get(scheme, scheme)}://{rest}"


def async_database_url(url: str) -> str:
    """The URL SQLAlchemy's async engine needs (``sqlite+aiosqlite``, ``postgresql+psycopg``)."""
    return _with_scheme(url, _ASYNC_DRIVERS)


def sync_database_url(url: str) -> str:
    """The URL Alembic's synchronous migrations need (psycopg 3 serves both worlds)."""
    return _with_scheme(url, _SYNC_DRIVERS)


def libpq_url(url: str) -> str:
    """A plain ``postgresql://`` URL for psycopg's own connections (no SQLAlchemy driver)."""
    return make_url(url).set(drivername="postgresql").render_as_string(False)


def with_tcp_options(url: str, options: dict[str, int]) -> str:
    """``url`` with libpq connection options added to its query string; those the URL sets
    itself win. Every PostgreSQL connection (the SQLAlchemy engine, the commit pool, the
    fan-out's and the catch-up's own) is made from this one URL, so they all get them."""
    parsed = make_url(url)
    added = {name: str(value) for name, value in options.items() if name not in parsed.query}
    return parsed.update_query_dict(added).render_as_string(False)


def is_postgres(url: str) -> bool:
    return url.split(":", 1)[0].split("+", 1)[0] in {"postgres", "postgresql"}


class Settings(BaseSettings):
    """Server configuration; every field can be set by the environment variable of its name."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: str = "sqlite:///./mu.db"
    host: str = "127.0.0.1"
    port: int = 8000
    # The public origin used in invite and rejoin links; without it the request's own origin
    # is used, which is right unless a proxy rewrites the host.
    base_url: str | None = None
    # permessage-deflate on the table sockets: views shrink to a fraction, for about 0.05 ms of
    # server CPU per message; turn off when CPU, not bandwidth, is what runs out.
    ws_deflate: bool = True
    # Bots wait this long before each move, so people can follow the table; tests set 0.
    bot_delay_ms: int = 700
    # A completed trick stays whole on the felt at least this long (the pages get it as
    # ``data-trick-pause-ms``): a bot that leads the next trick, or opens the next hand, waits
    # this long instead of ``bot_delay_ms``; a person's next card waits in the browser.
    trick_pause_ms: int = Field(default=1200, ge=0)
    # Background jobs (docs/operations.md, "Background jobs": reviews, reminders). This many
    # hand-review pool processes per process that runs jobs; 0: this web process runs no jobs
    # (``python -m app.worker`` does, which uses at least 1 pool process).
    review_workers: int = Field(default=1, ge=0, le=64)
    # The review pool's CPU priority: "idle" (Linux SCHED_IDLE: only CPU nobody else wants,
    # so moves never wait for reviews; a machine busy all the time delays them) or "low"
    # (nice +10: a small share even then). Elsewhere than Linux both are nice +10.
    review_priority: Literal["idle", "low"] = "idle"
    # How often an idle job loop looks for due jobs (PostgreSQL also wakes it at once with a
    # ``mu_jobs`` notification when a review is waited for), and how long a claimed job's lease
    # lasts without renewal before another worker takes the job over (its worker died).
    job_poll_seconds: float = Field(default=1.0, gt=0)
    job_lease_seconds: float = Field(default=60.0, gt=0)
    # Delete the history of tables with no action for this many days (a daily background
    # job, app/host/retention.py); unset: kept for ever.
    retention_days: int | None = Field(default=None, ge=1)
    # Several server processes on one database (behind a load balancer). Needs PostgreSQL: its
    # LISTEN/NOTIFY tells each process about changes the others committed. With PostgreSQL the
    # fan-out runs anyway (it costs nothing without a second process); this setting only makes
    # a SQLite configuration fail at start instead of silently serving stale tables.
    multi_process: bool = False
    # Python logging level name of ``python -m app``: INFO logs every commit and refusal;
    # DEBUG adds each catch-up with another process's changes.
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # One JSON object per line (for log collectors), or key=value text for people; unset:
    # text when stderr is a terminal, JSON otherwise.
    log_format: Literal["json", "text"] | None = None
    # Seconds between the safety-net version checks of the rooms a process serves (a missed
    # notification is healed within this time).
    resync_seconds: float = 2.0

    # TCP keepalives on every PostgreSQL connection (libpq's keepalives_idle, _interval,
    # _count, tcp_user_timeout): a connection whose server vanished without a word (a failover,
    # a dropped NAT entry) fails within about idle + interval x count seconds, or when sent data
    # stays unacknowledged for the user timeout, instead of hanging for the kernel's hours.
    pg_keepalives_idle: int = Field(default=30, ge=1)
    pg_keepalives_interval: int = Field(default=10, ge=1)
    pg_keepalives_count: int = Field(default=3, ge=1)
    pg_tcp_user_timeout_ms: int = Field(default=30_000, ge=0)

    # The connection budget of a process on PostgreSQL (docs/operations.md): the SQLAlchemy
    # pool (page loads, table loads, short reads) and the commit pool of the one-statement
    # writer; besides them a web process holds the fan-out's listen, notify and log-reader
    # connections, the job loop's listen and the table drivers' lock connection: 12 in all by
    # default, so ten processes stay under PostgreSQL's default max_connections of 100.
    db_pool_size: int = Field(default=4, ge=1, le=100)
    writer_pool_size: int = Field(default=3, ge=1, le=100)
    # A direct connection to PostgreSQL for what a transaction-mode pooler (PgBouncer) cannot
    # carry: LISTEN, the table drivers' session locks and the migrations' advisory lock. Unset:
    # DATABASE_URL. With DATABASE_URL pointing at PgBouncer in transaction mode, also set
    # PREPARED_STATEMENTS=false (PgBouncer before 1.21 cannot keep prepared statements).
    listen_database_url: str | None = None
    prepared_statements: bool = True

    # ``/docs`` (Swagger UI, served from this process) and ``/openapi.json``; false: neither.
    api_docs: bool = True
    # ``/metrics`` in Prometheus's format (keep it off the public route at the proxy).
    metrics: bool = True

    # -- limits (docs/operations.md, "Limits", lists each with its default) -------------------
    # The largest WebSocket frame uvicorn reads (after permessage-deflate): a few times the
    # protocol's 4,096-byte message limit, so that an oversized message still gets its typed
    # ``too_large`` error; anything larger closes the socket with 1009 before it is buffered.
    ws_max_frame_bytes: int = Field(default=16_384, ge=4096)
    # WebSocket keep-alive: a ping every this many seconds; no pong within the timeout closes.
    ws_ping_interval: float = Field(default=20.0, gt=0)
    ws_ping_timeout: float = Field(default=20.0, gt=0)
    # Messages per second one socket may send (a token bucket holding ``ws_message_burst``);
    # over it, each message is answered ``rate_limited`` and otherwise ignored, and after
    # ``ws_abuse_limit`` such messages the socket is closed with 4429.
    ws_messages_per_second: float = Field(default=10.0, gt=0)
    ws_message_burst: int = Field(default=30, ge=1)
    ws_abuse_limit: int = Field(default=100, ge=1)
    # HTTP: a request's line and headers must arrive within this many seconds (of the
    # connection opening, or of the previous response) and within this many bytes, else the
    # connection is closed (slowloris); an idle keep-alive connection closes after its own.
    http_head_timeout: float = Field(default=10.0, gt=0)
    http_head_max_bytes: int = Field(default=65_536, ge=8192)
    http_keep_alive_seconds: int = Field(default=5, ge=1)
    # The largest HTTP request body (all of ours are small JSON objects): 413 beyond.
    http_body_max_bytes: int = Field(default=65_536, ge=1024)
    # Per client address (moving windows, ``N/second|minute|hour``): tables opened, seats taken
    # (answered 429 with Retry-After beyond). RATE_LIMITS=false switches both off.
    rate_limits: bool = True
    create_table_rate: str = "20/minute"
    join_rate: str = "60/minute"
    # Where those rates are counted: ``memory://`` (each process its own counters) or
    # ``redis://host:port/db`` (one Redis shared by every process, which together then allow
    # the rate once). docs/operations.md, "Limits".
    rate_limit_storage: str = "memory://"
    # The reverse proxies whose X-Forwarded-For / -Proto uvicorn believes (comma-separated
    # addresses or networks, or "*"): the client address the rates count is then the one the
    # proxy names. Behind a proxy on another host, set its address here.
    forwarded_allow_ips: str = "127.0.0.1,::1"
    # Spectator sockets one table accepts (per process); more are closed with 4503.
    spectators_per_table: int = Field(default=50, ge=0)

    # -- Web Push (docs/operations.md, "Push notifications") ----------------------------------
    # The VAPID key pair (base64url: the raw 32-byte private key, the 65-byte uncompressed
    # public key). Unset: a pair is made on first start and kept in the database (every process
    # then shares it). Set both or neither.
    vapid_private_key: str | None = None
    vapid_public_key: str | None = None
    # Who runs this server, for the push services (a mailto: or https: URL).
    vapid_subject: str = "mailto:admin@localhost"

    @field_validator("create_table_rate", "join_rate")
    @classmethod
    def _a_rate(cls, value: str) -> str:
        limits.parse(value)  # ValueError for anything but "N/unit"
        return value

    @field_validator("rate_limit_storage")
    @classmethod
    def _a_storage(cls, value: str) -> str:
        # the schemes app/http/ratelimits.py maps to limits' storages
        if value.partition("://")[0] not in ("memory", "redis", "rediss", "unix"):
            raise ValueError("expected memory:// or redis://host:port/db")
        return value

    @property
    def uses_postgres(self) -> bool:
        return is_postgres(self.database_url)

    def tcp_options(self) -> dict[str, int]:
        """The libpq keepalive options of the settings above."""
        return {
            "keepalives": 1,
            "keepalives_idle": self.pg_keepalives_idle,
            "keepalives_interval": self.pg_keepalives_interval,
            "keepalives_count": self.pg_keepalives_count,
            "tcp_user_timeout": self.pg_tcp_user_timeout_ms,
        }

    @property
    def connection_url(self) -> str:
        """``DATABASE_URL`` as the app connects: with PostgreSQL, the TCP options added."""
        if not self.uses_postgres:
            return self.database_url
        return with_tcp_options(self.database_url, self.tcp_options())

    @property
    def direct_url(self) -> str:
        """The URL for LISTEN, session locks and migrations (``LISTEN_DATABASE_URL``, else
        ``DATABASE_URL``), with the TCP options on PostgreSQL."""
        url = self.listen_database_url or self.database_url
        return with_tcp_options(url, self.tcp_options()) if is_postgres(url) else url

    def psycopg_options(self) -> dict[str, Any]:
        """Keyword arguments of every pooled psycopg connection (none of them may keep a
        prepared statement behind a transaction-mode pooler)."""
        return {} if self.prepared_statements else {"prepare_threshold": None}

    def check_multi_process(self) -> None:
        """Refuse a multi-process setting that cannot work (SQLite has no LISTEN/NOTIFY).

        Raises:
            ValueError: MULTI_PROCESS is set but DATABASE_URL is not PostgreSQL.
        """
        if self.multi_process and not self.uses_postgres:
            raise ValueError(
                "MULTI_PROCESS=1 needs PostgreSQL: several processes learn about each other's"
                " changes through its LISTEN/NOTIFY, which SQLite lacks. Set DATABASE_URL to a"
                " postgresql:// URL, or run one process without MULTI_PROCESS."
            )
