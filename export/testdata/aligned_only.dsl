every 1m at +0s +30s until 10m
