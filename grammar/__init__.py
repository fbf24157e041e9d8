"""The Lark grammars of spider (data only: ``spider_cli.language.grammar`` builds the parsers)."""
