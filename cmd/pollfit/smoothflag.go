package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

// smoothFlag is --smooth: true (the default: the kernel's bandwidth
// cross-validated on the fitting items), false (fit the raw items) or a
// bandwidth to use as given.
type smoothFlag struct {
	off       bool
	bandwidth float64 // 0: cross-validated
}

func (s *smoothFlag) String() string {
	switch {
	case s.off:
		return "false"
	case s.bandwidth > 0:
		return strconv.FormatFloat(s.bandwidth, 'g', -1, 64)
	}
	return "true"
}

func (s *smoothFlag) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		*s = smoothFlag{off: !b}
		return nil
	}
	h, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(h > 0) || math.IsInf(h, 0) || h > 10 {
		return fmt.Errorf("want true, false or a bandwidth on the log-age axis such as 0.15, not %q", quote.Clip(v))
	}
	*s = smoothFlag{bandwidth: h}
	return nil
}

// Type is bool's, so that help shows --smooth as a switch: a bandwidth
// is given as --smooth=H.
func (s *smoothFlag) Type() string { return "bool" }

// addSmoothFlag registers --smooth on fs.
func addSmoothFlag(fs *pflag.FlagSet, s *smoothFlag) {
	fs.Var(s, "smooth", "fit the exact optimum (and --clauses 0) to the smoothed density of a log, not its items, which it would overfit, "+
		"with the kernel bandwidth chosen by cross-validation on the fitting items at the budget; --smooth=H smooths with bandwidth H "+
		"(the kernel's standard deviation on the log-age axis, as estimate --json's bandwidth_log); false fits the raw items")
	fs.Lookup("smooth").NoOptDefVal = "true"
}
