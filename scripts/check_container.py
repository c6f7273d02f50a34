#!/usr/bin/env python3
"""Build the real image with podman and run it as an operator would (CI runs this before the tests).

1. The base: the Dockerfile's ``BASE`` build argument defaults to the official Python image, which no registry here
   serves, so the base is made from Debian's own packages: ``debootstrap --variant=minbase`` of bookworm with
   Python, a virtual environment on ``PATH`` (``pip`` and ``python`` as in the official image) and this machine's
   certificate bundle (pip reaches PyPI as the machine does), imported as ``localhost/coroner-base:bookworm``. It
   is made once and kept: in podman's storage, and as a tarball in ``CORONER_IMAGE_CACHE`` (default
   ``/var/cache/coroner-image``) for when the storage was wiped; a fresh machine makes it (about 3 minutes).
2. ``podman build --build-arg BASE=... --format docker`` (the docker format keeps ``HEALTHCHECK``), the host's
   network for PyPI.
3. The image run with ``--runtime runc`` and open-file and process limits this machine allows (podman's defaults
   are refused by ``setrlimit`` here): ``coroner --version``; ``coroner migrate`` on a fresh volume as the image's
   unprivileged user; ``coroner run`` against the loopback Discord (``python -m tests.discord_double`` on the host
   network) until its ready line; the image's own ``HEALTHCHECK`` in the running container; then ``podman stop``
   (SIGTERM), which must end it with exit code 0 within the stop timeout.

Exit code 0 when every step passed; otherwise a one-line reason (and the end of the container's log). Run from
the repository root as root: ``python3 scripts/check_container.py`` (``--keep`` leaves the image and volume).
Machines with no container engine use ``scripts/check_image.py`` instead.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = "localhost/coroner-base:bookworm"
IMAGE = "localhost/coroner:check"
CACHE = Path(os.environ.get("CORONER_IMAGE_CACHE", "/var/cache/coroner-image"))
#: podman's default limits (over a million open files) are more than this machine lets a container have
#: (setrlimit is refused at the container's start); these are within it and ample for the bot
LIMITS = ["--ulimit", "nofile=16384:16384", "--ulimit", "nproc=8192:8192"]
PODMAN = ["podman", "--runtime", "runc"]
PACKAGES = ("podman", "runc", "debootstrap")
VENV = "/opt/python"
PATH = f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
READY_TIMEOUT = 90.0  # seconds from `coroner run` to its ready line
STOP_TIMEOUT = 20  # seconds podman waits after SIGTERM (compose's and docker's default is 10)


class Failed(Exception):
    """A step failed; the message says which, in one line."""


def step(title: str) -> float:
    print(f"check_container: {title}", flush=True)
    return time.monotonic()


def run(command: list[str], *, check: bool = True, capture: bool = True, **kwargs: object) -> str:
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, text=True, capture_output=capture, **kwargs)  # type: ignore[call-overload]
    if check and done.returncode != 0:
        if capture:
            sys.stdout.write((done.stdout or "")[-3000:])
            sys.stdout.write((done.stderr or "")[-3000:])
        raise Failed(f"exit {done.returncode}: {' '.join(command)}")
    return str(done.stdout or "")


def install_tools() -> None:
    """podman, runc and debootstrap from Debian's packages when one is missing."""
    if all(shutil.which(tool) for tool in PACKAGES):
        return
    started = step("installing podman, runc and debootstrap (apt)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-q"], env=env)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *PACKAGES, "uidmap"], env=env)
    print(f"  ({time.monotonic() - started:.0f} s)")


def image_exists(name: str) -> bool:
    return subprocess.run(["podman", "image", "exists", name]).returncode == 0


def make_base() -> None:
    """The base image from Debian's packages (kept in podman's storage and as a tarball in :data:`CACHE`)."""
    if image_exists(BASE):
        print(f"check_container: base {BASE} already made")
        return
    tarball = CACHE / "coroner-base-bookworm.tar"
    changes = ["--change", f"ENV PATH={PATH}", "--change", 'CMD ["python3"]']
    if not tarball.exists():
        started = step("making the base from Debian's packages (debootstrap, a few minutes the first time)")
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="coroner-base-", dir=CACHE) as work:
            rootfs = Path(work) / "rootfs"
            run(["debootstrap", "--variant=minbase", "--include=python3,python3-venv,python3-pip,ca-certificates",
                 "bookworm", str(rootfs)])
            run(["chroot", str(rootfs), "python3", "-m", "venv", VENV])
            if CA_BUNDLE.exists():  # trust what this machine trusts (a proxy's authority, say) for PyPI
                shutil.copy2(CA_BUNDLE, rootfs / "etc/ssl/certs/ca-certificates.crt")
            (rootfs / "etc/pip.conf").write_text("[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n")
            for package in (rootfs / "var/cache/apt/archives").glob("*.deb"):
                package.unlink()
            partial = tarball.with_suffix(".partial")
            run(["tar", "-C", str(rootfs), "-cf", str(partial), "."])
            partial.rename(tarball)
        print(f"  ({time.monotonic() - started:.0f} s)")
    run(["podman", "import", *changes, str(tarball), BASE])


def build() -> None:
    started = step(f"building {IMAGE} on {BASE}")
    run([*PODMAN, "build", *LIMITS, "--format", "docker", "--network", "host", "--build-arg", f"BASE={BASE}",
         "-t", IMAGE, str(ROOT)])
    print(f"  ({time.monotonic() - started:.0f} s)")


def start_double() -> tuple[subprocess.Popen[str], str, str]:
    """The loopback Discord on the host: its process, API base and token."""
    python = ROOT / ".venv" / "bin" / "python"
    double = subprocess.Popen([str(python if python.exists() else sys.executable), "-m", "tests.discord_double"],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert double.stdout is not None
    line = double.stdout.readline().split()
    if len(line) != 4 or line[0] != "api":
        double.kill()
        raise Failed(f"the loopback Discord did not start: {' '.join(line)!r}")
    return double, line[1], line[3]


def logs(container: str) -> str:
    done = subprocess.run(["podman", "logs", container], text=True, capture_output=True)
    return (done.stdout + done.stderr)[-3000:]


def wait_ready(container: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        state = json.loads(run(["podman", "inspect", "--format", "{{json .State}}", container]))
        text = logs(container)
        if " ready as " in text:
            return
        if not state.get("Running"):
            raise Failed(f"`coroner run` exited ({state.get('ExitCode')}) before its ready line:\n{text}")
        time.sleep(0.5)
    raise Failed(f"no ready line within {READY_TIMEOUT:.0f} s:\n{logs(container)}")


def check_image(volume: str) -> None:
    print(run([*PODMAN, "run", *LIMITS, "--rm", IMAGE, "coroner", "--version"]).strip())
    user = run([*PODMAN, "run", *LIMITS, "--rm", IMAGE, "id", "-u"]).strip()
    if user == "0":
        raise Failed("the image runs as root")
    run(["podman", "volume", "rm", "-f", volume], check=False)
    run(["podman", "volume", "create", volume])
    print(run([*PODMAN, "run", *LIMITS, "--rm", "-v", f"{volume}:/data", IMAGE, "coroner", "migrate"]).strip())
    double, api, token = start_double()
    container = "coroner-check-run"
    run(["podman", "rm", "-f", container], check=False)
    try:
        started = step("`coroner run` against the loopback Discord (host network)")
        run([*PODMAN, "run", *LIMITS, "-d", "--name", container, "--network", "host", "-v", f"{volume}:/data",
             "-e", f"DISCORD_TOKEN={token}", "-e", f"DISCORD_API_BASE={api}", "-e", "GUILD_READY_SECONDS=0.05",
             IMAGE])
        wait_ready(container)
        print(f"  ready after {time.monotonic() - started:.1f} s")
        health = run([*PODMAN, "healthcheck", "run", container], check=False)
        status = json.loads(run(["podman", "inspect", "--format", "{{json .State.Health}}", container]) or "{}")
        if (status or {}).get("Status") != "healthy":
            raise Failed(f"the HEALTHCHECK failed: {health.strip()} {status}\n{logs(container)}")
        print("  healthcheck: healthy")
        started = step("SIGTERM (podman stop)")
        run([*PODMAN, "stop", "-t", str(STOP_TIMEOUT), container])
        code = run(["podman", "inspect", "--format", "{{.State.ExitCode}}", container]).strip()
        took = time.monotonic() - started
        if code != "0":
            raise Failed(f"`coroner run` exited {code} on SIGTERM, not 0:\n{logs(container)}")
        if took >= STOP_TIMEOUT:
            raise Failed(f"`coroner run` took {took:.0f} s to stop on SIGTERM (killed at {STOP_TIMEOUT} s)")
        print(f"  stopped with exit code 0 after {took:.1f} s")
        print(logs(container)[-1500:])
    finally:
        run(["podman", "rm", "-f", container], check=False)
        double.terminate()
        try:
            double.wait(10)
        except subprocess.TimeoutExpired:
            double.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the image and the volume afterwards")
    args = parser.parse_args()
    started = time.monotonic()
    volume = "coroner-check-data"
    try:
        install_tools()
        make_base()
        build()
        check_image(volume)
    except Failed as exc:
        print(f"check_container: failed: {exc}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            subprocess.run(["podman", "volume", "rm", "-f", volume], capture_output=True)
    print(f"check_container: the image builds, migrates, passes its healthcheck, runs and stops cleanly "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
