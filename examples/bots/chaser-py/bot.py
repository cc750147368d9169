#!/usr/bin/env python3
"""A cat-and-mouse bot as a plain script speaking arena-json/1 (standard library only).

As the mouse it moves to the free cell farthest from the cat (by breadth-first distance); as the cat, to the
cell nearest the mouse. It reads one JSON object per line on stdin and answers one per line on stdout.
"""

import json
import sys
from collections import deque

DELTA = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def distances(rows, start):
    """Steps from ``start`` to every cell reachable around the obstacles."""
    far = {tuple(start): 0}
    queue = deque([tuple(start)])
    while queue:
        x, y = queue.popleft()
        for dx, dy in DELTA.values():
            nx, ny = x + dx, y + dy
            if 0 <= ny < len(rows) and 0 <= nx < len(rows[0]) and rows[ny][nx] != "#" and (nx, ny) not in far:
                far[(nx, ny)] = far[(x, y)] + 1
                queue.append((nx, ny))
    return far


def choose(obs, legal):
    """The legal move that brings the cat nearest the mouse, or takes the mouse farthest from the cat."""
    me, other = (obs["cat"], obs["mouse"]) if obs["role"] == "cat" else (obs["mouse"], obs["cat"])
    far = distances(obs["rows"], other)

    def score(move):
        dx, dy = DELTA[move]
        steps = far.get((me[0] + dx, me[1] + dy), 10**6)
        return -steps if obs["role"] == "cat" else steps

    return max(sorted(legal), key=score)


def main():
    """Answer the arena's messages until the game ends."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            answer = {"type": "ready"}
        elif message["type"] == "turn":
            answer = {"action": choose(message["observation"], message["legal"])}
        else:
            return
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


main()
