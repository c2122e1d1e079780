1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m
