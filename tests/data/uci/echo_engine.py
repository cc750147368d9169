"""A UCI engine for the tests: plays the first legal move in sorted UCI order, and tells what it was given.

It answers ``uci`` with ``id`` and ``option`` lines, records every ``setoption`` and ``go`` line, and before each
``bestmove`` writes ``info string`` lines echoing the options and the last ``go``, then a score that is the
number of moves played so far (``info depth 1 score cp N``). Its behaviour switches on the ``Mode`` option:
``normal``; ``illegal`` answers ``bestmove a1a1``; ``hang`` never answers a ``go``; ``garbage`` writes a line
that is not UCI instead of answering; ``crash`` exits at its first ``go``; ``resign`` reports ``score cp -900``.
It writes its log (every line it received) to the file named by the ``Log`` option, if any.
"""

import sys

import chess


def main():
    options = {}
    board = chess.Board()
    received = []
    logged = 0
    for raw in sys.stdin:
        line = raw.strip()
        received.append(line)
        if line.startswith("setoption name Log value "):
            options["Log"] = line.partition(" value ")[2]
        if "Log" in options:
            with open(options["Log"], "a") as log:
                log.writelines(f"{text}\n" for text in received[logged:])
            logged = len(received)
        if line == "uci":
            print("id name echo")
            print("option name Skill Level type spin default 20 min 0 max 20")
            print("option name Mode type string default normal")
            print("uciok")
        elif line.startswith("setoption name "):
            name, _, value = line[len("setoption name "):].partition(" value ")
            options[name] = value
        elif line == "isready":
            print("readyok")
        elif line.startswith("position "):
            words = line.split()
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
            if "moves" in words:
                for move in words[words.index("moves") + 1:]:
                    board.push_uci(move)
        elif line.startswith("go"):
            mode = options.get("Mode", "normal")
            if mode == "hang":
                continue
            if mode == "crash":
                sys.exit(3)
            if mode == "garbage":
                print("this is not uci")
                sys.stdout.flush()
                continue
            for name, value in sorted(options.items()):
                print(f"info string option {name}={value}")
            print(f"info string {line}")
            score = -900 if mode == "resign" else len(board.move_stack)
            print(f"info depth 1 score cp {score} nodes 1 pv a2a3")
            move = "a1a1" if mode == "illegal" else sorted(m.uci() for m in board.legal_moves)[0]
            print(f"bestmove {move}")
        elif line == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
