package fit

import "math"

// KneeShare is the knee's rule: past the knee, one more request per item
// buys less than this share of the mean lag, at every budget of the
// table from the knee on.
const KneeShare = 0.05

// markKnee sets each point's Gain, the mean lag one more request per
// item buys there (seconds per request, from the fitted schedules'
// lags made monotone in the budget, as a finite difference with the
// point after), and marks the knee: the first budget from which on the
// next request buys less than KneeShare of the lag at every budget of
// the table that has a next one, so that no row past the knee buys
// more. Points are sorted by budget. It is the one rule of the knee:
// pollfit frontier's text, CSV and JSON and the report all print the
// point it marks.
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
		pts[i].Knee = false
		if i+1 < len(pts) {
			pts[i].Gain = (lag[i] - lag[i+1]) / (pts[i+1].RequestsPerItem - pts[i].RequestsPerItem)
		}
	}
	knee := -1
	for i := len(pts) - 2; i >= 0; i-- {
		if !(pts[i].Gain >= 0 && pts[i].Gain < KneeShare*lag[i]) {
			break
		}
		knee = i
	}
	if knee >= 0 {
		pts[knee].Knee = true
	}
}

// Knee is the point markKnee marked in pts, or nil.
func Knee(pts []FrontierPoint) *FrontierPoint {
	for i := range pts {
		if pts[i].Knee {
			return &pts[i]
		}
	}
	return nil
}
