"""The packages to install: everything under ``balance/`` that has an ``__init__.py`` (so a
new game's package is found, not listed), and the shipped strategies, installed as
``balance.strategies`` from ``strategies/`` (pyproject's ``package-dir``).

Everything else about the build is in ``pyproject.toml``; only this list needs code, as
pyproject's package discovery names packages by their folders and so cannot find
``strategies/`` under the name ``balance.strategies``.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["balance", "balance.*"]), "balance.strategies"])
