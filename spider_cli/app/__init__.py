"""The application: a session and its parts (:mod:`spider_cli.app.session`).

The commands' handlers (:mod:`spider_cli.app.handlers`) sit above the session and register
into its table of commands; they are loaded with the package, so a session always has its
commands, whichever of the package's modules is imported first.
"""

from spider_cli.app import handlers as handlers
