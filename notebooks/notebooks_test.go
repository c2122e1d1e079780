// Package notebooks holds the analyst notebooks; its test executes them.
package notebooks

import (
	"os/exec"
	"testing"
)

// TestNotebooks executes every notebook with run.sh when jupyter is
// installed: each builds pollfit from the checkout and drives it. It
// takes a minute or two, so -short skips it.
func TestNotebooks(t *testing.T) {
	if testing.Short() {
		t.Skip("notebooks take a minute or two; skipped in -short mode")
	}
	if _, err := exec.LookPath("jupyter"); err != nil {
		if _, err := exec.LookPath("/usr/bin/jupyter"); err != nil {
			t.Skip("jupyter is not installed: apt-get install jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib")
		}
	}
	out, err := exec.Command("sh", "run.sh").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("run.sh: %v", err)
	}
}
