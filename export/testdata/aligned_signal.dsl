2s until 20s, 30s, every 1h at +0s, reset on signal
