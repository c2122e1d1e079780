// Package plot draws pollfit's pictures: settle-time densities and
// survival curves, hazards and ask rates, lag distributions, the
// wait-versus-cost frontier and the phase of batch answers within their
// period. It is a thin layer over gonum.org/v1/plot that gives every
// picture the same size, palette and fonts, log-time axes with readable
// ticks (1s 10s 1m 10m 1h) and axis labels with units.
//
// Builders take plain []float64 (ages and lags in seconds) and return a
// *Figure, which writes itself as SVG or PNG and records what it drew:
// each series' name, kind and number of drawn points, so that tests and
// the HTML report can check a picture without comparing pixels.
//
// Non-finite values, and values that are not positive on a log axis,
// are dropped before drawing; long curves are thinned to what a screen
// can show (at most a few thousand vertices), keeping every step of a
// staircase that moves by more than a hair.
package plot
