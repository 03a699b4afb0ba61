"""tools/gpu_bundle.py without a package index: what it ships, how it lays wheels out, enter.sh."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tools import gpu_bundle as pack


def test_requirements_are_the_projects_and_its_gpu_extra_without_streamlit(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\ndependencies = ["torch>=2.4", "Streamlit>=1.30", "tilelang>=0.1.12"]\n'
        '[project.optional-dependencies]\ngpu = ["cuda-bindings>=12.8"]\ntest = ["pytest>=8"]\n'
    )
    assert pack.project_requirements(pyproject) == ["torch>=2.4", "tilelang>=0.1.12", "cuda-bindings>=12.8"]


def test_the_real_pyproject_has_the_gpu_extra():
    assert "cuda-bindings" in {pack.requirement_name(r) for r in pack.project_requirements()}


def test_packages_the_host_has_are_not_shipped():
    report = {
        "install": [
            {"metadata": {"name": "torch", "version": "2.11.0"}},
            {"metadata": {"name": "nvidia-cublas-cu12", "version": "12.8.4.1"}},
            {"metadata": {"name": "Pydantic_Core", "version": "2.50.5"}},
            {"metadata": {"name": "tilelang", "version": "0.1.15"}},
        ]
    }
    assert pack.to_ship(report, pack.HOST_PACKAGES) == ["pydantic-core==2.50.5", "tilelang==0.1.15"]


def test_host_packages_come_from_pip_freeze_output(tmp_path):
    freeze = tmp_path / "host.txt"
    freeze.write_text(
        "# host\nGitPython==3.1.43\ntorch @ file:///wheels/torch.whl\n-e /src/thing\n\nzope.interface==7\n"
    )
    assert pack.read_host_packages(freeze) == {"gitpython", "torch", "zope-interface"}


def test_extra_packages_follow_the_options():
    args = pack.parse_args(["liger-kernel==0.8.5", "--out", "/tmp/b"])
    assert args.packages == ["liger-kernel==0.8.5"]
    assert args.out == Path("/tmp/b")
    assert args.python_version == "3.12"


def test_a_python_version_must_be_major_dot_minor():
    with pytest.raises(SystemExit):
        pack.parse_args(["--python-version", "312"])


def test_wheels_unpack_as_site_packages_without_data_scripts(tmp_path):
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("demo/__init__.py", "X = 1\n")
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\n")
        archive.writestr("demo-1.0.data/purelib/demo_extra.py", "Y = 2\n")
        archive.writestr("demo-1.0.data/scripts/demo-cli", "#!/bin/sh\n")
        tool = zipfile.ZipInfo("demo/bin/tool")
        tool.external_attr = 0o100755 << 16
        archive.writestr(tool, "#!/bin/sh\n")
    site = tmp_path / "site"
    pack.unpack_wheels([wheel], site)
    assert sorted(p.name for p in site.iterdir()) == ["demo", "demo-1.0.dist-info", "demo_extra.py"]
    assert os.access(site / "demo" / "bin" / "tool", os.X_OK)


@pytest.fixture
def bundle(tmp_path):
    """A bundle of one module, `bundled_demo`, as the script writes it."""
    site = tmp_path / "build"
    site.mkdir()
    (site / "bundled_demo.py").write_text("VALUE = 42\n")
    folder = tmp_path / "project" / ".gpu-bundle"
    folder.mkdir(parents=True)
    pack.write_tarball(site, folder / "site.tar.xz")
    (folder / "enter.sh").write_text(pack.ENTER_SH)
    return folder


def _source(bundle: Path, site: Path, then: str) -> subprocess.CompletedProcess:
    if shutil.which("bash") is None or shutil.which("xz") is None:
        pytest.skip("needs bash and xz")
    env = {"PATH": os.environ["PATH"], pack.SITE_ENV: str(site)}
    script = f"set -u; source .gpu-bundle/enter.sh && {then}"
    return subprocess.run(
        ["bash", "-c", script], cwd=bundle.parent, env=env, capture_output=True, text=True, timeout=60
    )


def test_enter_sh_unpacks_the_bundle_and_sets_pythonpath(bundle, tmp_path):
    site = tmp_path / "site"
    done = _source(
        bundle, site, f'{sys.executable} -c "import bundled_demo; print(bundled_demo.VALUE)"; echo $PYTHONPATH'
    )
    assert done.returncode == 0, done.stderr
    value, pythonpath = done.stdout.split()
    assert value == "42"
    assert pythonpath.split(":") == [str(site), str(bundle.parent)]


def test_enter_sh_unpacks_again_only_for_a_newer_bundle(bundle, tmp_path):
    site = tmp_path / "site"
    assert _source(bundle, site, "true").returncode == 0
    (site / "left-by-a-run").write_text("")
    assert _source(bundle, site, "true").returncode == 0
    assert (site / "left-by-a-run").exists()  # the same bundle: kept
    marker = (site / ".unpacked").stat().st_mtime
    os.utime(bundle / "site.tar.xz", (marker + 10, marker + 10))
    assert _source(bundle, site, "true").returncode == 0
    assert not (site / "left-by-a-run").exists()  # a newer bundle: unpacked afresh


def test_enter_sh_refuses_a_folder_it_did_not_make(bundle, tmp_path):
    site = tmp_path / "mine"
    site.mkdir()
    (site / "precious.txt").write_text("keep me")
    done = _source(bundle, site, "echo entered")
    assert "entered" not in done.stdout
    assert "not from a bundle" in done.stderr
    assert (site / "precious.txt").read_text() == "keep me"


def test_the_tarball_is_owned_by_root(bundle):
    with tarfile.open(bundle / "site.tar.xz") as archive:
        assert {(m.uid, m.gid) for m in archive.getmembers()} == {(0, 0)}
