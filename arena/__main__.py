"""``python -m arena`` and the ``arena`` script run the command line.

The command line is imported only when :func:`main` runs: a worker process started from the ``arena`` script
runs this module again (as ``spawn`` does for the main script), and must not load every command for nothing.
"""


def main() -> None:
    """Run the ``arena`` command line."""
    from arena.cli.main import main as run_command_line

    run_command_line()


if __name__ == "__main__":
    main()
