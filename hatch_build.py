"""The wheel's build hook: with ``MU_COMPILED=1`` the wheel carries the engine compiled by mypyc,
and, where ``make bundle`` built it, the pages' bundle (``bundle/`` as ``app/bundle``).

Without it (the default, and the published wheel) nothing happens: a pure-Python wheel.  With
it, setup_mypyc.py compiles the engine in this tree, the wheel takes the extensions, their
shared library and the build record (engine/_compiled.txt) besides the sources, and gets the
platform tag of this interpreter.  The Docker image is built this way (Dockerfile, build stage).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def wanted() -> bool:
    return os.environ.get("MU_COMPILED") == "1"


class CompiledEngine(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # An isolated build fetches the compiler; the Docker build installs it locked instead.
        return ["mypy==2.4.1", "setuptools>=65"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        # The pages' bundle (make bundle, app/web/bundle.py), when built: the app serves it.
        if (Path(self.root) / "bundle" / "manifest.json").is_file():
            build_data["force_include"][str(Path(self.root) / "bundle")] = "app/bundle"
        if not wanted():
            return
        sys.path.insert(0, self.root)
        import setup_mypyc

        root = Path(self.root)
        for path in setup_mypyc.build(root):
            build_data["force_include"][str(path)] = path.relative_to(root).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
