"""Test oracles kept with the tests.

`interpreter` is a plain, slow Python interpreter of the rule model
(`fairyforge.compiler.model.Variant`), written independently of the compiled engines
so that the two can be compared move by move (tests/test_seed_oracle.py).
"""

from .interpreter import Interpreter, OraclePosition  # noqa: F401
