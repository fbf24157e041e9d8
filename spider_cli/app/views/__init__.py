"""What the board's views hold, apart from how they are drawn: the analysis view's cursor
over a game's positions (:mod:`spider_cli.app.views.stepping`)."""
