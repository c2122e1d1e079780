// Package notebooks holds the analyst notebooks; its test executes them.
package notebooks

import (
	"os/exec"
	"testing"

	"github.com/pollfit/pollfit/internal/testenv"
)

// quick is the notebook run by default: it fits a model rather than a
// log and simulates a crowd, so it drives pollfit, pandas and matplotlib
// end to end in seconds. The long tests (internal/testenv) run them all.
const quick = "03-webhook-retries-and-storms.ipynb"

// TestNotebooks executes the notebooks with run.sh when jupyter is
// installed: each builds pollfit from the checkout and drives it, and its
// committed outputs must be a fresh run's. All of them take a minute or
// two, so only quick runs by default; -short skips it.
func TestNotebooks(t *testing.T) {
	if testing.Short() {
		t.Skip("notebooks take a minute or two; skipped in -short mode")
	}
	if _, err := exec.LookPath("jupyter"); err != nil {
		if _, err := exec.LookPath("/usr/bin/jupyter"); err != nil {
			t.Skip("jupyter is not installed: apt-get install jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib")
		}
	}
	args := []string{"run.sh"}
	if !testenv.Long() {
		args = append(args, quick)
	}
	out, err := exec.Command("sh", args...).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("run.sh: %v", err)
	}
}
