"""Never says ready."""
import time

time.sleep(1000)
