"""Packages: setuptools installs kernels/ as `workbench.kernels` (see workbench/__init__.py for why)."""

from setuptools import find_packages, setup

kernels = ["workbench.kernels", *(f"workbench.kernels.{name}" for name in find_packages("kernels"))]
setup(
    packages=[*find_packages(include=["agent*", "tools*", "ui*", "prompts*", "workbench"]), *kernels],
    package_dir={"workbench.kernels": "kernels"},
)
