"""Packaging: `pip install --no-build-isolation --no-index` into a fresh venv works, and the README's example sends a run."""

import glob
import os
import re
import shutil
import subprocess
import sys

from conftest import PACKAGE_DIR

WHEELS = "/usr/share/python-wheels"  # Debian's python3-venv / python3-wheel-whl


def readme_example() -> str:
    text = (PACKAGE_DIR / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "packages/python/README.md has no ```python example"
    return blocks[0]


def pip_env() -> dict:
    # no user or site pip configuration (index URLs, find-links, constraints): only what the command says
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def run(args, **kwargs):
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout}\n{done.stderr}"
    return done


def test_the_readme_example_is_ten_lines():
    assert len(readme_example().strip().splitlines()) <= 10


def test_pip_installs_the_package_offline_and_the_readme_example_sends_a_run(server, tmp_path):
    venv = tmp_path / "venv"
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "venv", str(venv)])
    env = pip_env()
    # A venv of Debian's Python 3.11 has setuptools; building a wheel with setuptools < 70.1 also
    # needs `wheel`, which --no-build-isolation does not fetch: take Debian's wheel of it when missing.
    for tool in ("setuptools", "wheel"):
        if subprocess.run([str(python), "-c", f"import {tool}"], capture_output=True).returncode != 0:
            found = sorted(glob.glob(f"{WHEELS}/{tool}-*.whl"))
            assert found, f"the venv lacks {tool} and {WHEELS} has no wheel of it (Debian: apt-get install python3-venv python3-wheel-whl)"
            run([str(python), "-m", "pip", "install", "--no-index", found[-1]], env=env)
    # pip builds in the source tree (build/, *.egg-info): build a copy, as an sdist would be
    source = tmp_path / "cuescope-src"
    shutil.copytree(PACKAGE_DIR, source, ignore=shutil.ignore_patterns("tests", "*.ts", "build", "*.egg-info", "__pycache__"))
    run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index", str(source)], env=env)

    # installed, with its data files; not imported from the repository
    probe = run([str(python), "-c", "import cuescope, importlib.resources as r; print(cuescope.__file__); print(r.files('cuescope').joinpath('py.typed').is_file())"], env=env, cwd=tmp_path)
    where, typed = probe.stdout.split()
    assert where.startswith(str(venv)) and typed == "True"

    script = tmp_path / "example.py"
    script.write_text(readme_example(), encoding="utf-8")
    done = run([str(python), str(script)], env={**env, "CUESCOPE_URL": server.url, "CUESCOPE_API_KEY": server.key}, cwd=tmp_path)
    run_id, acknowledged = done.stdout.split()
    assert acknowledged == "5"
    types = [e["type"] for e in server.events(run_id)]
    assert sorted(types) == sorted(["run.started", "meter.requests", "request.final", "request.submitted", "run.ended"])
