"""The SPIDER manual's worked problems as position files and scripts (package data)."""
