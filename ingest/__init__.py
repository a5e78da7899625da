"""gamerec ingest layer."""
