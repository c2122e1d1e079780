at 0s 1s, 2s until 2m, 5s until 10m, every 5m at +2s +5s until 1h
