"""The words a player reads: the typed results as text, the searches' findings, and a long
search's progress."""
