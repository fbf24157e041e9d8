"""The command line's front ends: ``spider run``, ``show``, ``solve``, ``bench`` and
``examples``, and the arguments of ``spider`` itself (:mod:`spider_cli.cli.main`). They
print and exit; the interactive ones are in :mod:`spider_cli.tui`, which hands its way of
playing at a terminal to :func:`spider_cli.cli.main.main`.
"""
