at 0s 1s, 2s until 2m, 5s
