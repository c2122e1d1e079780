// Package plot draws pollfit's pictures: settle-time densities and
// survival curves, hazards and ask rates, lag distributions, items one by
// one under two schedules, the wait-versus-cost frontier and the phase of
// batch answers within their period. It is a thin layer over gonum.org/v1/plot that gives every
// picture the same size, palette and fonts, log-time axes with readable
// ticks (1s 10s 1m 10m 1h) and axis labels with units.
//
// Each picture is built in one place from the domain values behind it
// (DensityOf, SurvivalOf, HazardOf, LagsOf, ItemsOf, FrontierOf,
// PhaseOf), which pollfit's --plot flags and its HTML report both call;
// those draw with the lower-level builders, which take plain []float64
// (ages and lags in seconds). Every builder returns a *Figure, which
// writes itself as SVG or PNG and records what it drew: each series'
// name, kind and number of drawn points, so that tests and the HTML
// report can check a picture without comparing pixels. Ages on axes and
// labels are written by schedule.FormatAge, pollfit's one age formatter.
//
// Non-finite values, and values that are not positive on a log axis,
// are dropped before drawing; long curves are thinned to what a screen
// can show (at most a few thousand vertices), keeping every step of a
// staircase that moves by more than a hair.
package plot
