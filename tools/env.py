"""The environment a result was measured in: GPU, driver, smi output, library versions, target."""

from __future__ import annotations

import importlib.metadata
import platform
import shutil
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

import torch

from tools.evaluator.records import Environment
from workbench.kernels.target import TargetInfo, current

LIBRARIES = ("torch", "triton", "tilelang", "ninetoothed", "langgraph", "openai", "pydantic")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


@dataclass(frozen=True)
class DeviceFacts:
    """The GPU as the driver reports it (torch.cuda.get_device_properties), for the hardware notes."""

    name: str
    sm_count: int | None = None
    l2_bytes: int | None = None
    memory_bytes: int | None = None
    memory_clock_khz: int | None = None
    memory_bus_bits: int | None = None
    compute_capability: str | None = None

    @property
    def peak_memory_gbps(self) -> float | None:
        """Theoretical DRAM bandwidth, GB/s: two transfers per memory clock (DDR) over the bus width."""
        if not self.memory_clock_khz or not self.memory_bus_bits:
            return None
        return 2 * self.memory_clock_khz * 1e3 * self.memory_bus_bits / 8 / 1e9


def device_facts(properties: Callable[[int], object] | None = None, index: int = 0) -> DeviceFacts | None:
    """The facts of GPU `index`, read through `properties` (default: torch.cuda.get_device_properties when a GPU
    is visible); None without a GPU. A field this PyTorch does not expose stays None."""
    if properties is None:
        if not torch.cuda.is_available():
            return None
        properties = torch.cuda.get_device_properties
    props = properties(index)

    def number(name: str) -> int | None:
        value = getattr(props, name, None)
        return int(value) if value else None

    major, minor = getattr(props, "major", None), getattr(props, "minor", None)
    return DeviceFacts(
        name=str(props.name),
        sm_count=number("multi_processor_count"),
        l2_bytes=number("L2_cache_size"),
        memory_bytes=number("total_memory"),
        memory_clock_khz=number("memory_clock_rate"),
        memory_bus_bits=number("memory_bus_width"),
        compute_capability=f"{major}.{minor}" if major is not None and minor is not None else None,
    )


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
