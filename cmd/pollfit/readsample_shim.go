package main

// Temporary: replaced by the weighted reader of the histogram work.

import (
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
)

func (rf *readFlags) readSample(e *env, args []string) (fit.Sample, estimate.ReadStats, error) {
	items, st, err := rf.read(e, args)
	return fit.ItemSample(items), st, err
}
