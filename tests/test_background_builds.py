"""The child that builds a protocol session's engine (runtime/protocols/builds.py main):
which builds it asks for, without compiling anything (build.build is replaced)."""

from fairyforge.compiler import build, evalparams, loader
from fairyforge.protocols import builds


def test_the_quick_engine_leaves_the_parameter_file_out_and_the_optimized_one_uses_it(
        monkeypatch, capsys):
    asked = []
    monkeypatch.setattr(build, "cached", lambda variant, params: False)
    monkeypatch.setattr(build, "build", lambda variant, progress=None, evaluation="auto",
                        quick=False: asked.append((evaluation, quick)))
    assert builds.main(["crazyhouse"]) == 0
    params = evalparams.for_build(loader.load_variant("crazyhouse"))
    assert params                     # crazyhouse ships a parameter file
    assert asked == [(None, True), (params, False)]
    assert builds.QUICK_READY in capsys.readouterr().out.splitlines()


def test_an_engine_in_the_cache_is_not_built_quickly_first(monkeypatch):
    asked = []
    monkeypatch.setattr(build, "cached", lambda variant, params: True)
    monkeypatch.setattr(build, "build", lambda variant, progress=None, evaluation="auto",
                        quick=False: asked.append((evaluation, quick)))
    assert builds.main(["crazyhouse"]) == 0
    assert [quick for _, quick in asked] == [False]
