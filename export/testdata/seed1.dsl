# fitted for checkout
# second line * / not code
# fitted from: payments.csv
# budget: 8 asks per item
# mean_asks: 6.25
# p95_delay_s: 4.5
at 0s 3s 8s 16s 29s, 15s until 2m, 30s
