"""Pack the workbench's Python dependencies for a GPU host that has no package index.

Run on a machine that reaches a package index, from the project root:

    python3 -m tools.gpu_bundle                        # -> .gpu-bundle/
    python3 -m tools.gpu_bundle liger-kernel==0.8.5    # the same, plus more packages
    python3 -m tools.gpu_bundle --host-packages host.txt --python-version 3.12 --out DIR

It needs nothing but the standard library and pip: the project need not be installed where it runs.

It resolves the project's dependencies (pyproject.toml: `dependencies` and the `gpu` extra, less
streamlit: the review UI runs wherever the run folders are copied to) for the host's interpreter
on x86-64 Linux, leaves out what the host already has, unpacks the other wheels into one folder
and writes:

    .gpu-bundle/site.tar.xz    that folder, xz-compressed
    .gpu-bundle/MANIFEST       the packages in it, name==version, one a line
    .gpu-bundle/enter.sh       sourced on the host (below)

On the host, from a copy of the checkout that includes .gpu-bundle/:

    source .gpu-bundle/enter.sh && python3 -m agent env

enter.sh unpacks site.tar.xz into /tmp/site (KW_BUNDLE_SITE overrides the folder) the first time
and again whenever site.tar.xz is newer than the unpacked copy, then puts that folder and the
checkout on PYTHONPATH. The project itself is not installed there: run it as `python3 -m agent`.

What the host has is `HOST_PACKAGES` below (the H200 host's image), or the names in a file given
with --host-packages (the output of `python3 -m pip freeze` or `pip list --format=freeze` on the
host). Only wheels are shipped; a dependency without a wheel for the host fails the pack.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = PROJECT_ROOT / "pyproject.toml"
DEFAULT_OUT = PROJECT_ROOT / ".gpu-bundle"
DEFAULT_PYTHON = "3.12"
# Extras of the project whose requirements go into the bundle.
EXTRAS = ("gpu",)
# Project dependencies the GPU host does not need: the UI is reviewed on another machine.
NOT_SHIPPED = frozenset({"streamlit"})

# On the H200 host's image already (`python3 -m pip list` there), so never shipped. Shipping a second
# torch or triton next to the host's would shadow the ones built for its driver.
HOST_PACKAGES = frozenset(
    """
    anyio certifi charset-normalizer click cloudpickle cuda-bindings cuda-pathfinder cuda-toolkit filelock
    fsspec h11 httpcore httpx idna jinja2 markdown-it-py markupsafe matplotlib mdurl ml-dtypes mpmath
    networkx numpy packaging pandas pillow pip psutil pygments pyyaml requests rich safetensors scipy
    setuptools shellingham sympy torch tqdm triton typer typing-extensions urllib3 wheel xxhash
    """.split()
)
# Whole families the host's CUDA build of torch brings (nvidia-cublas-cu12, ...).
HOST_PREFIXES = ("nvidia-",)

# Wheels built for any of these run on the host (glibc 2.35, x86-64).
PLATFORMS = (
    "manylinux2014_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux_2_24_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_28_x86_64",
    "manylinux_2_31_x86_64",
    "manylinux_2_34_x86_64",
    "manylinux_2_35_x86_64",
)

SITE_ENV = "KW_BUNDLE_SITE"
DEFAULT_SITE = "/tmp/site"

# Sourced, never run: it sets PYTHONPATH in the caller's shell. A folder that holds neither marker
# was not made by this script, so it is refused rather than deleted.
ENTER_SH = f"""\
# Source from the project root on the GPU host: source .gpu-bundle/enter.sh
# Written by `python3 -m tools.gpu_bundle`. Unpacks site.tar.xz into ${SITE_ENV} (default {DEFAULT_SITE}) when
# that copy is missing or older than the bundle, then puts it and the project on PYTHONPATH.
_kw_bundle="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
_kw_site="${{{SITE_ENV}:-{DEFAULT_SITE}}}"
if [ ! -f "$_kw_site/.unpacked" ] || [ "$_kw_bundle/site.tar.xz" -nt "$_kw_site/.unpacked" ]; then
  if [ -n "$(ls -A "$_kw_site" 2>/dev/null)" ] \\
    && [ ! -e "$_kw_site/.kw-bundle" ] && [ ! -e "$_kw_site/.unpacked" ]; then
    echo "enter.sh: $_kw_site holds files that are not from a bundle; set {SITE_ENV} to another folder" >&2
    return 1
  fi
  rm -rf "$_kw_site" && mkdir -p "$_kw_site" && touch "$_kw_site/.kw-bundle" \\
    && tar -xJf "$_kw_bundle/site.tar.xz" -C "$_kw_site" && touch "$_kw_site/.unpacked" \\
    || {{ echo "enter.sh: could not unpack $_kw_bundle/site.tar.xz into $_kw_site" >&2; return 1; }}
fi
export PYTHONPATH="$_kw_site:$(dirname "$_kw_bundle")${{PYTHONPATH:+:$PYTHONPATH}}" PYTHONUNBUFFERED=1
unset _kw_bundle _kw_site
"""

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalise(name: str) -> str:
    """A distribution name as package indexes compare them (PEP 503): `GitPython` and `gitpython` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The normalised name of a requirement string (`tilelang>=0.1.12`, `foo[bar]; python_version<'3.13'`)."""
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return normalise(match.group(1))


def project_requirements(pyproject: Path = PYPROJECT, extras: tuple[str, ...] = EXTRAS) -> list[str]:
    """The project's requirement strings and those of `extras`, less NOT_SHIPPED, in file order."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise SystemExit("reading pyproject.toml needs Python 3.11+ (or the tomli package)") from None
    project = tomllib.loads(Path(pyproject).read_text())["project"]
    optional = project.get("optional-dependencies", {})
    missing = [extra for extra in extras if extra not in optional]
    if missing:
        raise ValueError(f"{pyproject} has no optional-dependencies {missing}; it has {sorted(optional)}")
    requirements = [*project.get("dependencies", []), *(r for extra in extras for r in optional[extra])]
    return [r for r in requirements if requirement_name(r) not in NOT_SHIPPED]


def read_host_packages(path: Path) -> frozenset[str]:
    """Normalised names from `pip freeze` / `pip list --format=freeze` output (`name==1.0`, `name @ URL`).

    Option lines (`-e PATH`, an editable checkout such as this project) name no installed package.
    """
    names = set()
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")):
            continue
        names.add(requirement_name(line))
    if not names:
        raise ValueError(f"{path} names no packages; write `python3 -m pip freeze` on the host into it")
    return frozenset(names)


def on_host(name: str, host: frozenset[str]) -> bool:
    name = normalise(name)
    return name in host or name.startswith(HOST_PREFIXES)


def to_ship(report: dict, host: frozenset[str]) -> list[str]:
    """`name==version` of every package in pip's install report that the host lacks, sorted by name."""
    pins = {}
    for item in report.get("install", []):
        name, version = normalise(item["metadata"]["name"]), item["metadata"]["version"]
        if not on_host(name, host):
            pins[name] = f"{name}=={version}"
    return [pins[name] for name in sorted(pins)]


def target_options(python_version: str) -> list[str]:
    """pip options that pick wheels for the host's interpreter and platform instead of this machine's."""
    options = ["--python-version", python_version, "--implementation", "cp", "--only-binary=:all:"]
    for platform in PLATFORMS:
        options += ["--platform", platform]
    return options


def _pip(args: list[str]) -> None:
    command = [sys.executable, "-m", "pip", *args]
    done = subprocess.run(command, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pip failed ({done.returncode}): {' '.join(command)}")


def resolve(requirements: list[str], python_version: str, scratch: Path) -> dict:
    """pip's install report for `requirements` as the host would install them from scratch."""
    report = scratch / "report.json"
    # pip accepts --platform only for a --target install; --dry-run keeps that folder empty.
    _pip(
        [
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--report",
            str(report),
            "--target",
            str(scratch / "unused"),
            *target_options(python_version),
            *requirements,
        ]
    )
    return json.loads(report.read_text())


def download(pins: list[str], python_version: str, folder: Path) -> list[Path]:
    _pip(["download", "--no-deps", "--dest", str(folder), *target_options(python_version), *pins])
    wheels = sorted(folder.glob("*.whl"))
    if len(wheels) != len(pins):
        raise SystemExit(f"expected {len(pins)} wheels in {folder}, found {len(wheels)}")
    return wheels


def unpack_wheels(wheels: list[Path], site: Path) -> None:
    """Install `wheels` into `site` as pip --target would lay them out, without scripts, headers or data files.

    A wheel's `NAME.data/purelib` and `NAME.data/platlib` belong in site-packages; its `scripts`,
    `headers` and `data` are for a prefix the host never uses (z3-solver ships its library there a
    second time).
    """
    site.mkdir(parents=True, exist_ok=True)
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.infolist():
                path = Path(archive.extract(member, site))
                mode = member.external_attr >> 16  # zipfile drops permissions; executables need theirs
                if mode & 0o111 and not member.is_dir():
                    path.chmod(0o755)
    for data in sorted(site.glob("*.data")):
        for scheme in ("purelib", "platlib"):
            part = data / scheme
            if part.is_dir():
                shutil.copytree(part, site, dirs_exist_ok=True)
        shutil.rmtree(data)


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    # Unpacked as root on the host, the files would otherwise get this machine's uid.
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def write_tarball(site: Path, tarball: Path) -> None:
    """`site`'s contents as an xz tarball, written beside `tarball` and renamed: a failed pack keeps the old one."""
    partial = tarball.with_name(tarball.name + ".partial")
    with tarfile.open(partial, "w:xz", preset=9) as archive:
        for path in sorted(site.iterdir()):
            archive.add(path, arcname=path.name, filter=_owned_by_root)
    partial.replace(tarball)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.gpu_bundle",
        description="Pack the project's dependencies for a GPU host without a package index.",
    )
    parser.add_argument(
        "packages", nargs="*", metavar="REQUIREMENT", help="more packages to ship, e.g. liger-kernel==0.8.5"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="bundle folder (default: .gpu-bundle)")
    parser.add_argument(
        "--python-version", default=DEFAULT_PYTHON, metavar="X.Y", help="the host's Python (default: %(default)s)"
    )
    parser.add_argument(
        "--host-packages",
        type=Path,
        metavar="FILE",
        help="`pip freeze` output of the host: those packages are not shipped (default: the H200 host's list)",
    )
    args = parser.parse_args(argv)
    if not re.fullmatch(r"3\.\d+", args.python_version):
        parser.error(f"--python-version takes X.Y, e.g. 3.12; got {args.python_version!r}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    requirements = [*project_requirements(), *args.packages]
    host = read_host_packages(args.host_packages) if args.host_packages else HOST_PACKAGES
    out = args.out.resolve()
    print(f"resolving for Python {args.python_version}: {' '.join(requirements)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="gpu-bundle-") as scratch:
        scratch = Path(scratch)
        pins = to_ship(resolve(requirements, args.python_version, scratch), host)
        print(f"shipping {len(pins)}: {' '.join(pins)}", flush=True)
        wheels = download(pins, args.python_version, scratch / "wheels")
        site = scratch / "site"
        unpack_wheels(wheels, site)
        out.mkdir(parents=True, exist_ok=True)
        print(f"compressing into {out / 'site.tar.xz'}", flush=True)
        write_tarball(site, out / "site.tar.xz")
    (out / "MANIFEST").write_text("".join(pin + "\n" for pin in pins))
    (out / "enter.sh").write_text(ENTER_SH)
    size = (out / "site.tar.xz").stat().st_size / 2**20
    print(f"{out}: site.tar.xz ({size:.1f} MiB), MANIFEST, enter.sh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
