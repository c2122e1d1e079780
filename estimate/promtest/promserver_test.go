package promtest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
)

// promConfig scrapes the exporter every second.
const promConfig = `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pollfit_test
    static_configs:
      - targets: ['%s']
`

// startPrometheus starts Debian's prometheus on loopback, with native
// histograms on, scraping target, its configuration and data in a
// temporary folder; it stops it when the test ends. The test skips,
// naming the package, without a prometheus binary.
func startPrometheus(t *testing.T, target string) *promServer {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("no prometheus: install Debian's prometheus package (apt-get install prometheus)")
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(promConfig, target)), 0o666); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	log, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--enable-feature=native-histograms", "--log.level=warn")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Skipf("prometheus: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		log.Close()
	})
	return &promServer{url: "http://" + addr, log: log.Name()}
}

// A promServer is a prometheus the test started: its URL, and the file
// of its log.
type promServer struct{ url, log string }

// promQuery is an instant query's answer, the raw JSON.
func promQuery(server, query string) ([]byte, error) {
	resp, err := http.Get(server + "/api/v1/query?" + url.Values{"query": {query}}.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s: %.500s", resp.Status, b)
	}
	return b, nil
}

// awaitQuery runs query until pollfit reads its answer as a histogram
// of want answers (a minute at most: the server starts and scrapes each
// second), and returns the file in dir it saved that answer to.
func (p *promServer) awaitQuery(t *testing.T, dir, name, query string, want float64) string {
	t.Helper()
	file := filepath.Join(dir, name)
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := promQuery(p.url, query)
		if err == nil {
			err = os.WriteFile(file, b, 0o666)
		}
		var h *logs.Histogram
		if err == nil {
			h, err = logs.ReadMetric(file, logs.MetricOptions{})
		}
		if err == nil && h.Total() == want {
			return file
		}
		if time.Now().After(deadline) {
			logb, _ := os.ReadFile(p.log)
			t.Fatalf("prometheus: %s: no answer of %g within a minute (%v)\n%s", query, want, err, logb)
		}
		time.Sleep(300 * time.Millisecond)
	}
}
