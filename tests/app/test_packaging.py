"""The wheel is the app: installed apart from the checkout, it serves and migrates on its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from app.__main__ import GRACEFUL_SECONDS
from tests.app.processes import ROOT, run_command


def build_and_install(tmp_path: Path) -> Path:
    """Build the wheel from the checkout and install it (without dependencies: the test's
    environment has them) into a folder of its own; the folder."""
    wheels, site = tmp_path / "wheels", tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)]
    subprocess.run(build, check=True, capture_output=True)
    (wheel,) = wheels.glob("mu_online-*.whl")
    install = [*pip, "install", "--no-deps", "--target", str(site), str(wheel)]
    subprocess.run(install, check=True, capture_output=True)
    return site


@pytest.mark.processes
def test_the_installed_wheel_serves_pages_static_files_and_migrations(tmp_path: Path) -> None:
    """Issue 14, packaging: the wheel held only the Python code, and the app worked only from
    the checkout, whose folders shadowed it. Installed elsewhere and run from a third folder,
    it migrates a new database and serves its pages (in both languages), static files and
    history pages."""
    site = build_and_install(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = [sys.executable, "-c", "import app, engine; print(app.__file__, engine.__file__)"]
    imported = subprocess.run(
        where, cwd=elsewhere, env={"PYTHONPATH": str(site)}, capture_output=True, text=True
    )
    assert imported.stdout.split() == [
        str(site / "app" / "__init__.py"),
        str(site / "engine" / "__init__.py"),
    ]
    with run_command(elsewhere, cwd=elsewhere, PYTHONPATH=str(site)) as server:
        get = lambda path: httpx.get(server.base + path, timeout=5)  # noqa: E731
        assert "Neuer Tisch" in get("/?lang=de").text
        assert "New table" in get("/?lang=en").text
        code = httpx.post(f"{server.base}/api/tables", json={"players": 3}).json()["invite_code"]
        assert f'data-code="{code}"' in get(f"/t/{code}").text
        for asset in ["/static/js/table.js", "/static/css/mu.css", "/static/favicon.svg"]:
            assert get(asset).status_code == 200, asset
        assert "Meine Tische" in get("/me/tables?lang=de").text
        assert get("/docs").status_code == 200
    assert "Running upgrade" in server.output
    assert "Traceback" not in server.output


def test_the_docker_files_agree_with_the_checkout() -> None:
    """No Docker engine runs here, so the Dockerfile and compose file are checked by reading:
    every file the image copies exists and is not left out by .dockerignore, the image
    installs the locked dependencies, and compose waits longer than the graceful drain."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    ignored = {
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()
    }
    for line in dockerfile.splitlines():
        if line.startswith("COPY ") and "--from" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists() and source not in ignored, source
    assert "--require-hashes --no-deps -r /tmp/run.txt" in dockerfile
    assert "USER mu" in dockerfile
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app = compose["services"]["app"]
    assert int(app["stop_grace_period"].removesuffix("s")) > GRACEFUL_SECONDS
    assert "healthcheck" in app and "${POSTGRES_PASSWORD" in app["environment"]["DATABASE_URL"]
    assert compose["services"]["db"]["env_file"] == ".env"
    assert (ROOT / ".env.example").exists() and ".env" in ignored
