at 0s 3s 8s, 10s until 1m, reset on signal
