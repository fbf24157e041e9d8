"""What the application keeps on disk: files written atomically, the player's directories,
the SQLite databases (the history of games, statistics, the bench's results) and the settings kept
between runs."""
