"""gamerec dashboard layer."""
