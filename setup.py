"""Package list for setuptools (the rest of the metadata is in pyproject.toml).

The repository keeps its shipped models in ``models/`` (where the checkout and editable
installs find them); a wheel carries the same files as the data package ``relx/models``,
found by :func:`relx.model_store.models_dir` through ``importlib.resources``.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["relx", "relx.*"]), "relx.models"],
      package_dir={"relx.models": "models"})
