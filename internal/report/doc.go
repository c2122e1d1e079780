// Package report writes pollfit's HTML report: one self-contained file
// with the pictures of package internal/plot inlined as SVG, a table of
// metrics, the fitted schedule and the command that reproduces it. It
// needs nothing at display time: no scripts, no fonts or stylesheets
// fetched, and it reads on a laptop and a phone (the pictures scale to
// the width of the page, wide tables scroll sideways).
//
// A Report is plain data; Write renders it. Each figure is wrapped in a
// <figure> whose data-series attribute lists the series drawn
// ("name|kind|points" separated by ";"), so a reader or a test can check
// what a picture holds without looking at it.
package report
