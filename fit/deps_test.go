package fit_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoFileFormats: fit and export link no file format library; reading
// logs is estimate/logs' job (the layout promise of the package docs).
func TestNoFileFormats(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("fit: no go command on PATH to list dependencies")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/pollfit/pollfit/fit", "github.com/pollfit/pollfit/export").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "apache/arrow") || strings.HasSuffix(dep, "/estimate/logs") {
			t.Errorf("fit or export links %s", dep)
		}
	}
}

// TestInternalLeaves: the leaves under internal/ (quoting, CSV scanning,
// quantile sketches, the radix sort, the test switch, the option error
// the layers share)
// import no other pollfit package, so every layer may use them; the
// report and its pictures, used only by the command, live under
// cmd/pollfit/internal.
func TestInternalLeaves(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("fit: no go command on PATH to list dependencies")
	}
	for _, leaf := range []string{"quantile", "quote", "csvscan", "radix", "testenv", "opterr"} {
		pkg := "github.com/pollfit/pollfit/internal/" + leaf
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/pollfit/pollfit/") && dep != pkg {
				t.Errorf("internal/%s imports %s", leaf, dep)
			}
		}
	}
}
