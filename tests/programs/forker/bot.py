"""Forks a child that sleeps, then plays: the first legal move onto a free cell."""
import json
import os
import sys
import time

if os.fork() == 0:
    time.sleep(1000)
    os._exit(0)
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        answer = {"type": "ready"}
    elif message["type"] == "turn":
        obs = message["observation"]
        x, y = obs["heads"][obs["seat"]]
        free = [m for m in message["legal"] if obs["rows"][y + DELTA[m][1]][x + DELTA[m][0]] == "."]
        answer = {"action": (free or message["legal"])[0]}
    else:
        break
    print(json.dumps(answer), flush=True)
