"""The command-line front door (click). Thin: it parses arguments and calls
into replay, ingest, analytics and dashboard."""


def run() -> None:
    """The ``gamerec`` program.  Ctrl-C while its commands load is a one-line message and exit 130 too."""
    import sys

    try:
        from gamerec_cli.main import main
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
    main(prog_name="gamerec")
