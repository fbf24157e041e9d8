"""``python -m spider_cli``: the same as the ``spider`` command."""

from spider_cli.tui.main import main

raise SystemExit(main())
