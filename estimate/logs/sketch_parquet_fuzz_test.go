package logs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// FuzzReadParquetSketch: a Parquet sketch, however damaged, is read or
// refused with a short error, never a panic or a hang, and one read
// holds only finite, non-negative weights and writes back as a sketch
// that reads again.
func FuzzReadParquetSketch(f *testing.F) {
	s, err := estimate.NewSketch(0.3, 1)
	if err != nil {
		f.Fatal(err)
	}
	for _, it := range []estimate.Item{{Age: 1.5, Status: estimate.Settled}, {Age: 30, Status: estimate.Failed}, {Age: 600, Status: estimate.Pending}} {
		s.Add(it, 1)
	}
	var b bytes.Buffer
	if err := WriteParquetSketch(&b, s); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.parquet")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		readWatchdog(t, func() {
			IsParquetSketch(p)
			s, err := ReadParquetSketch(p)
			if err != nil {
				if n := len(err.Error()); n > 4096 {
					t.Fatalf("error of %d bytes", n)
				}
				return
			}
			for _, part := range []*estimate.SketchPart{&s.Fit, &s.HeldOut} {
				_, ws := part.Bins()
				for _, w := range ws {
					if !(w > 0) || w > 1e300 {
						t.Fatalf("weight %v", w)
					}
				}
			}
			var out bytes.Buffer
			if err := estimate.WriteSketch(&out, s); err != nil {
				t.Fatal(err)
			}
			if _, err := estimate.ReadSketch(&out, "back"); err != nil {
				t.Fatalf("a Parquet sketch read does not write back: %v", err)
			}
		})
	})
}
