"""Setuptools shim: all metadata lives in pyproject.toml.

Kept because the design card lists it and some tools still look for it.
"""
from setuptools import setup

setup()
