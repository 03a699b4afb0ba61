"""The environment a result was measured in: GPU, driver, smi output, library versions, target."""

from __future__ import annotations

import importlib.metadata
import platform
import shutil
import socket
import subprocess

import torch

from kernels.target import TargetInfo, current
from tools.evaluator.records import Environment

LIBRARIES = ("torch", "triton", "tilelang", "ninetoothed", "langgraph", "openai", "pydantic")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def smi_output(info: TargetInfo, timeout_s: float = 10.0) -> str | None:
    """`nvidia-smi` / `mx-smi` output, or None when the tool is not on PATH."""
    if shutil.which(info.smi) is None:
        return None
    try:
        done = subprocess.run([info.smi], capture_output=True, text=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"{info.smi} failed: {err}"
    return (done.stdout or done.stderr).strip()


def _driver_version(info: TargetInfo) -> str | None:
    if info.name != "cuda" or shutil.which("nvidia-smi") is None:
        return None
    try:
        done = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip().splitlines()[0] if done.stdout.strip() else None


def collect_environment(info: TargetInfo | None = None, with_smi: bool = False) -> Environment:
    info = info or current()
    env = Environment(
        hostname=socket.gethostname(),
        platform=platform.platform(),
        python=platform.python_version(),
        target=info.name,
        versions={name: _version(name) for name in LIBRARIES},
        cuda_runtime=torch.version.cuda,
    )
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        env.device = props.name
        env.device_count = torch.cuda.device_count()
        env.l2_bytes = int(getattr(props, "L2_cache_size", 0)) or None
        env.driver = _driver_version(info)
    if with_smi:
        env.smi = smi_output(info)
    return env


def format_environment(env: Environment) -> str:
    lines = [
        f"target      {env.target}",
        f"device      {env.device or 'none (no GPU visible to PyTorch)'}"
        + (f" x{env.device_count}" if env.device_count > 1 else ""),
        f"driver      {env.driver or '-'}",
        f"cuda        {env.cuda_runtime or '-'}",
        f"L2          {env.l2_bytes // 2**20} MiB" if env.l2_bytes else "L2          -",
        f"python      {env.python} on {env.platform}",
        f"host        {env.hostname}",
    ]
    lines += [f"{name:<12}{version}" for name, version in env.versions.items()]
    if env.smi is not None:
        lines += ["", env.smi]
    elif env.device is None:
        lines += [
            "",
            "No GPU: the torch backend runs; TileLang kernels lower to CUDA source; timings need a GPU.",
        ]
    return "\n".join(lines)


def gpu_slug(env: Environment) -> str:
    """A folder name for results from this device, e.g. nvidia-h200 or cpu."""
    name = (env.device or "cpu").lower()
    return "-".join("".join(c if c.isalnum() else " " for c in name).split())
