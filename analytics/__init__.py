"""gamerec analytics layer."""
