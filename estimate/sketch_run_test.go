package estimate

import (
	"bytes"
	"math"
	"testing"
)

// AddRun is Add row by row: the same bins, counts and item samples, byte
// for byte in the sketch file, for runs of any length (a row alone, runs
// shorter and longer than a sweep), with weighted rows (thinned by the
// split), rows of weight zero and unusable ages, with and without a
// hold-out.
func TestSketchAddRun(t *testing.T) {
	items := sampleLog(3000, 8)
	ws := make([]float64, len(items))
	for i := range ws {
		ws[i] = 1
		switch i % 97 {
		case 5:
			ws[i] = 7
		case 6:
			ws[i] = 0
		case 7:
			items[i].Age = math.NaN()
		}
	}
	for _, holdout := range []float64{0.3, 0} {
		one := &Sketch{Holdout: holdout, Seed: 5, Sample: 500}
		for i, it := range items {
			one.Add(it, ws[i])
		}
		runs := &Sketch{Holdout: holdout, Seed: 5, Sample: 500}
		rest, rw := items, ws
		for _, n := range []int{1, 3, runChunk + 1, 2 * runChunk, len(rest)} {
			n = min(n, len(rest))
			runs.AddRun(rest[:n], rw[:n])
			rest, rw = rest[n:], rw[n:]
		}
		sameSketch(t, one, runs)
		var a, b bytes.Buffer
		if err := WriteSketch(&a, one); err != nil {
			t.Fatal(err)
		}
		if err := WriteSketch(&b, runs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("holdout %g: the sketch file of AddRun differs from Add's", holdout)
		}
		if one.Fit.Items == 0 || holdout > 0 && one.HeldOut.Items == 0 {
			t.Fatalf("holdout %g: empty parts %v/%v", holdout, one.Fit.Items, one.HeldOut.Items)
		}
	}
}
