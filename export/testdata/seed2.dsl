at 0s 2s 5s 8s 12s, 5s until 2m, 15s
