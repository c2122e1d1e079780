// Package report writes pollfit's HTML report: one self-contained file
// that opens with a summary that decides (Summary: the schedule to ship,
// today's beside it, the comparisons, the stuck cost, the give-up age and
// the knee, every figure the study's and named by its path in pollfit fit
// --json), then the pictures of package internal/plot inlined as SVG, a
// table of metrics and the command that reproduces it. It
// needs nothing at display time: no scripts, no fonts or stylesheets
// fetched, and it reads on a laptop and a phone (the pictures scale to
// the width of the page, wide tables scroll sideways).
//
// A Report is plain data; Write renders it. Each figure is wrapped in a
// <figure> whose data-series attribute lists the series drawn
// ("name|kind|points" separated by ";"), so a reader or a test can check
// what a picture holds without looking at it.
package report
