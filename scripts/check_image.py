#!/usr/bin/env python3
"""Replay the Dockerfile's install steps in a clean virtual environment, for where no container engine can run.

Reads ``Dockerfile`` instruction by instruction: ``ENV`` sets variables, ``COPY`` copies into a temporary ``/app``,
every ``RUN pip install ...`` runs with the fresh environment's pip, ``VOLUME`` folders become temporary folders,
and other ``RUN`` lines (creating the user) are shown as skipped. Then it checks what the image would run: ``pip
check``, every installed version equals ``requirements.lock``, ``coroner --version``, ``coroner migrate`` on the
volume and the ``HEALTHCHECK`` command. Exit code 0 when all pass. Run: ``python3 scripts/check_image.py``
(needs Python 3.11 with venv and PyPI; takes a few minutes).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: shaped like a bot token (the health check looks at the shape; it never connects)
PLACEHOLDER_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Y2hlY2s.aW1hZ2UtY2hlY2stcGxhY2Vob2xkZXItdG9rZW4"


def instructions(dockerfile: Path = ROOT / "Dockerfile") -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` for each instruction (continuation lines joined, comments dropped)."""
    text = re.sub(r"\\\n\s*", " ", dockerfile.read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def env_pairs(arguments: str) -> dict[str, str]:
    """The ``KEY=value`` pairs of an ``ENV`` instruction."""
    return dict(part.split("=", 1) for part in shlex.split(arguments))


def exec_form(arguments: str) -> list[str]:
    """The command of ``CMD``/``HEALTHCHECK ... CMD`` in exec (JSON) form."""
    return list(json.loads(arguments[arguments.index("["):]))


def locked_versions(lock: Path = ROOT / "requirements.lock") -> dict[str, str]:
    """``{normalised name: version}`` pinned in the lock file."""
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)==([^\s\\;]+)", lock.read_text(), flags=re.M)
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in pins}


def run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-4000:])
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"check_image: failed (exit {done.returncode}): {' '.join(command)}")
    return done.stdout


def replay(work: Path) -> None:
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    app = work / "app"
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(venv)}
    volumes: dict[str, Path] = {}
    health: list[str] | None = None
    for word, arguments in instructions():
        if word == "WORKDIR":
            app.mkdir(parents=True, exist_ok=True)
        elif word == "ENV":
            for key, value in env_pairs(arguments).items():
                env[key] = value
        elif word == "COPY":
            *sources, target = shlex.split(arguments)
            for source in sources:
                destination = app / target / Path(source).name if target.endswith("/") else app / target
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, destination, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(ROOT / source, destination)
        elif word == "RUN" and arguments.startswith("pip install "):
            run(shlex.split(arguments), app, env)
        elif word == "RUN":
            print(f"(skipped, needs root in the image: RUN {arguments})")
        elif word == "VOLUME":
            for folder in exec_form(arguments):
                volumes[folder] = work / "volume" / folder.strip("/")
                volumes[folder].mkdir(parents=True)
        elif word == "HEALTHCHECK":
            health = exec_form(arguments)
    for folder, local in volumes.items():  # the image's paths on the volume point into the temporary folder
        env = {key: value.replace(f"//{folder}/", f"//{local}/") for key, value in env.items()}
    env["DISCORD_TOKEN"] = PLACEHOLDER_TOKEN
    run(["pip", "check"], app, env)
    installed = dict(line.lower().split("==", 1) for line in run(["pip", "freeze", "--exclude", "coroner"], app,
                                                                  env).split() if "==" in line)
    installed = {re.sub(r"[-_.]+", "-", name): version for name, version in installed.items()}
    drift = {name: (version, installed.get(name)) for name, version in locked_versions().items()
             if installed.get(name) != version}
    if drift:
        raise SystemExit(f"check_image: installed versions differ from requirements.lock: {drift}")
    print(run(["coroner", "--version"], app, env).strip())
    run(["coroner", "migrate"], app, env)
    if health is None:
        raise SystemExit("check_image: the Dockerfile has no HEALTHCHECK")
    print(run(health, app, env).strip())
    print("check_image: the Dockerfile's install steps work in a clean virtual environment")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="coroner-image-") as work:
        replay(Path(work))


if __name__ == "__main__":
    main()
