"""Says ready, then sleeps on its first turn."""
import sys
import time

sys.stdin.readline()
print('{"type": "ready"}', flush=True)
sys.stdin.readline()
time.sleep(1000)
