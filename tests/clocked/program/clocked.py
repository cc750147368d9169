"""An arena-json program that sleeps (argument ``sleep``) or keeps the CPU busy (``busy``) for 0.3 s on each
of its first five turns, and writes the time_left of every turn to stderr. It goes east, then south."""

import json
import sys
import time


def main():
    """Answer the arena until the game ends."""
    mode = sys.argv[1]
    turns = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            answer = {"type": "ready"}
        elif message["type"] == "turn":
            turns += 1
            sys.stderr.write(f"time_left {message['time_left']!r}\n")
            sys.stderr.flush()
            if turns <= 5:
                if mode == "busy":
                    began = time.process_time()
                    while time.process_time() - began < 0.3:
                        pass
                else:
                    time.sleep(0.3)
            answer = {"action": "E" if turns <= 6 else "S"}
        else:
            break
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
