"""Prompt templates and the guides given to the LLM, as files in this package.

`render(name, **values)` renders a jinja2 template (`*.j2`); `backend_guide` returns a
backend's markdown guide, `hardware_notes` the notes on the device present (hardware/). Templates use StrictUndefined,
so a value the caller forgot is an error here, not a silent blank in a prompt.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from workbench.kernels.backends import backend as backend_of

if TYPE_CHECKING:
    from tools.env import DeviceFacts

PROMPTS_DIR = Path(__file__).parent

# Curated notes by chip, matched in the device name the driver reports (or the target, for MetaX, whose
# PyTorch names its device otherwise). A GPU with none gets the driver's figures and the judge's method only.
HARDWARE_NOTES = {
    "h200": "hardware/h200.md",
    "h100": "hardware/h100.md",
    "a100": "hardware/a100.md",
    "c500": "hardware/c500.md",
}


@functools.cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        # Block tags ({% if %}, {% for %}) take no lines of their own in the rendered prompt.
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # markdown for a model, not HTML
    )


def render(name: str, **values: object) -> str:
    """Render the template `name` (e.g. "propose.md.j2") with `values`."""
    if not name.endswith(".j2"):
        raise ValueError(f"{name!r} is not a template; templates end in .j2")
    try:
        template = _environment().get_template(name)
    except jinja2.TemplateNotFound:
        known = ", ".join(sorted(p.name for p in PROMPTS_DIR.glob("*.j2")))
        raise ValueError(f"no prompt template {name!r} in {PROMPTS_DIR}; known: {known}") from None
    return template.render(**values)


def _read(name: str) -> str:
    return (PROMPTS_DIR / name).read_text()


def backend_guide(backend: str) -> str:
    """The API notes and pitfalls for writing a kernel file in `backend` (its guide: kernels/backends.py)."""
    return _read(backend_of(backend).guide)


def curated_notes(device_name: str, target: str = "cuda") -> str:
    """The curated notes for a device (its name as the driver reports it); "" where there are none."""
    name = device_name.lower()
    chip = next((chip for chip in HARDWARE_NOTES if chip in name), None)
    if chip is None and target == "maca":
        chip = "c500"
    return _read(HARDWARE_NOTES[chip]) if chip else ""


def hardware_notes(facts: DeviceFacts | None, target: str = "cuda", copy_gbps: float | None = None) -> str:
    """The hardware part of a prompt: the device present as the driver reports it (`facts`, None on the CPU),
    the curated notes for its chip where we have them, the copy bandwidth the judge measured (`copy_gbps`), and
    how the judge times a kernel (tools/evaluator/benchmark.py, seating.py)."""
    from tools.evaluator.seating import L2_MULTIPLE, MAX_SETS

    return render(
        "hardware.md.j2",
        facts=facts,
        curated=curated_notes(facts.name, target) if facts is not None else "",
        copy_gbps=copy_gbps,
        l2_multiple=L2_MULTIPLE,
        max_sets=MAX_SETS,
    )
