"""Says ready, then answers its first turn with a line that is not JSON."""
import sys

sys.stdin.readline()
print('{"type": "ready"}', flush=True)
sys.stdin.readline()
print("about to answer garbage", file=sys.stderr, flush=True)
print("hello", flush=True)
sys.stdin.readline()
