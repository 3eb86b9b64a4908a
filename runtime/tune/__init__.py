"""`fairyforge tune GAME`: an evaluation learned for each variant (Texel's method).

    from fairyforge.tune import tune
    report = tune("ichess", games=200, depth=2)     # plays, fits, writes the file
    print(report.path, report.values)

The engine's evaluation (piece values, values in hand, square bonuses) is fitted to
the results of games by logistic regression (fit.py) on quiet positions
(samples.py), then written as a parameter file (compiler/evalparams.py) that the next
build of the game uses.  docs/engine.md describes the method and the file.
"""

# `tune` is imported on first use: the command line registers `fairyforge tune` without
# importing numpy and scipy, which only the `tune` (and `test`) extras install.


def __getattr__(name):
    if name == "tune":
        from .tuning import tune
        return tune
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
