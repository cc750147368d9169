"""``python -m arena`` and the ``arena`` script run the command line.

The command line is imported only when :func:`main` runs: a worker process started from the ``arena`` script
runs this module again (as ``spawn`` does for the main script), and must not load every command for nothing.
Then only the command it runs is loaded, when it names a built-in one (:mod:`arena.cli.launch`).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading


def main() -> None:
    """Run the ``arena`` command line, then exit as :func:`leave` does."""
    try:
        run_command_line(sys.argv[1:])
    except SystemExit as stop:
        leave(stop.code)
    leave(0)


def run_command_line(argv: list[str]) -> None:
    """Run the command line on the arguments ``argv`` and exit with its status, loading only the module of the
    built-in command they name, or the whole command line when they name none."""
    # What loads now (modules, classes, the command line) lives until the program ends. Full collections would
    # walk all of it again and again during a long command (about a tenth of a second of a 10,000-game
    # tournament), and a forked worker's collections would touch every page of it: so nothing is collected
    # while it loads, and then it is set aside for good (gc.freeze), out of every later collection's way.
    gc.disable()
    try:
        from arena.cli.launch import assemble, command_module, run

        module = command_module(argv)
        if module is None:
            from arena.cli.main import app
        else:
            app = assemble([module])
    finally:
        gc.freeze()
        gc.enable()
    run(app, argv)


def leave(code: int | str | None) -> None:
    """Exit with ``code`` as ``sys.exit`` would, without the interpreter's teardown when nothing else runs.

    Everything registered to run at exit runs first (a local Ray cluster stops, temporary folders go) and the
    output is flushed; what is skipped is freeing every module and object one by one, which takes about a
    tenth of a second after a tournament. With other threads running, under a profiler or a debugger (which
    write their findings after the program returns), or if the output cannot be flushed (a closed pipe), it
    exits the usual way.
    """
    if threading.active_count() > 1 or sys.getprofile() is not None or sys.gettrace() is not None:
        raise SystemExit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    atexit._run_exitfuncs()
    if isinstance(code, str):
        print(code, file=sys.stderr)
        status = 1
    else:
        status = code or 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


if __name__ == "__main__":
    main()
