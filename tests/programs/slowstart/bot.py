"""Takes 0.7 s to start, then plays: the first legal move onto a free cell."""
import json
import sys
import time

DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        time.sleep(0.7)  # past every budget the tests expect it to miss (0.3, 0.4 and 0.5 s)
        answer = {"type": "ready"}
    elif message["type"] == "turn":
        obs = message["observation"]
        x, y = obs["heads"][obs["seat"]]
        free = [m for m in message["legal"] if obs["rows"][y + DELTA[m][1]][x + DELTA[m][0]] == "."]
        answer = {"action": (free or message["legal"])[0]}
    else:
        break
    print(json.dumps(answer), flush=True)
