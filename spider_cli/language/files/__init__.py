"""The files a player names and what they say: position files in their four layouts, checked
and completed, compared with a game; and reading any named file safely."""
