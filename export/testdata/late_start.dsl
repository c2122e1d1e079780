at 5s 10s 20s
