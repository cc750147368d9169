"""Says ready, then writes megabytes without a newline on its first turn."""
import sys
import time

sys.stdin.readline()
print('{"type": "ready"}', flush=True)
sys.stdin.readline()
sys.stdout.write("x" * (4 << 20))
sys.stdout.flush()
time.sleep(1000)
