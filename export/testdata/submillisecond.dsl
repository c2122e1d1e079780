at 250us 1.5ms, 1.000001s until 3s, every 1h at +0s, reset on signal
