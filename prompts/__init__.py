"""Prompt templates and the guides given to the LLM, as files in this package.

`render(name, **values)` renders a jinja2 template (`*.j2`); `backend_guide` and
`hardware_notes` return the plain markdown guides. Templates use StrictUndefined,
so a value the caller forgot is an error here, not a silent blank in a prompt.
"""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2

from kernels.backends import backend as backend_of

PROMPTS_DIR = Path(__file__).parent

# Keyed by target name (kernels.target.TargetInfo.name) and by chip name. "cuda" means the
# H200 because that is the NVIDIA machine these kernels are measured on.
HARDWARE_NOTES = {
    "cuda": "hardware_h200.md",
    "h200": "hardware_h200.md",
    "maca": "hardware_c500.md",
    "c500": "hardware_c500.md",
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


def hardware_notes(target_name: str) -> str:
    """The hardware facts for a target ("cuda"/"maca", or the chip: "h200"/"c500")."""
    key = target_name.strip().lower()
    if key not in HARDWARE_NOTES:
        raise ValueError(f"no hardware notes for target {target_name!r}; known: {', '.join(HARDWARE_NOTES)}")
    return _read(HARDWARE_NOTES[key])
