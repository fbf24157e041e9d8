"""The Lark grammars of spider, shipped inside the package."""
