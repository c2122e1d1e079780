package fit

import "math"

// KneeShare is the knee's rule: past the knee, one more request per item
// buys less than this share of the mean lag.
const KneeShare = 0.05

// markKnee sets each point's Gain, the mean lag one more request per
// item buys there (seconds per request, from the fitted schedules'
// lags made monotone in the budget, as a finite difference with the
// point before), and marks the knee: the first budget whose next request
// buys less than KneeShare of its lag. Points are sorted by budget.
func markKnee(pts []FrontierPoint) {
	lag := make([]float64, len(pts))
	for i, p := range pts {
		lag[i] = p.Fitted.Lag.Mean
		if i > 0 && !(lag[i] <= lag[i-1]) && !math.IsNaN(lag[i-1]) {
			lag[i] = lag[i-1] // more budget never has to wait longer
		}
	}
	for i := range pts {
		pts[i].Gain = math.NaN()
		if i+1 < len(pts) {
			pts[i].Gain = (lag[i] - lag[i+1]) / (pts[i+1].RequestsPerItem - pts[i].RequestsPerItem)
		}
	}
	for i, p := range pts {
		if p.Gain >= 0 && p.Gain < KneeShare*lag[i] {
			pts[i].Knee = true
			return
		}
	}
}
