package estimate

import (
	"compress/gzip"
	"os"
	"testing"
)

func writeGzip(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(text))
	zw.Close()
	f.Close()
}
