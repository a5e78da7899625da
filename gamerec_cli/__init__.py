"""The command-line front door (click). Thin: it parses arguments and calls
into replay, ingest, analytics and dashboard."""
