"""The Fairyforge compiler: definition text -> rule model -> Cython source -> module.

One module per phase: parse, resolve (with betza), model, lower, codegen, build.
"""
