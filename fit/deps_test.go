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
