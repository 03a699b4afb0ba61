"""A known design of a kernel: a CONFIG preset with the reason a kernel developer would give for it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Design:
    name: str
    rationale: str
    config: dict
