package sqltest

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A clickhouse is a ClickHouse server the test started, spoken to over
// its HTTP interface.
type clickhouse struct {
	url     string
	version string
}

// chConfig is the server's configuration: loopback only, the test's
// ports and folders, UTC, small caches.
const chConfig = `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>%[1]s/server.log</log><errorlog>%[1]s/error.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>%[2]d</http_port>
  <tcp_port>%[3]d</tcp_port>
  <path>%[1]s/data/</path>
  <tmp_path>%[1]s/tmp/</tmp_path>
  <user_files_path>%[1]s/user_files/</user_files_path>
  <format_schema_path>%[1]s/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
</yandex>
`

// chUsers lets the default user in from loopback without a password.
const chUsers = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`

// chServer is the command that runs a ClickHouse server: Debian's
// clickhouse-server, or the single clickhouse binary of current
// releases; nil when neither is installed.
func chServer(config string) *exec.Cmd {
	for _, name := range []string{"clickhouse-server", "/usr/sbin/clickhouse-server"} { // root's PATH may lack sbin
		if p, err := exec.LookPath(name); err == nil {
			return exec.Command(p, "--config-file="+config)
		}
	}
	if p, err := exec.LookPath("clickhouse"); err == nil {
		return exec.Command(p, "server", "--config-file="+config)
	}
	return nil
}

// startClickHouse starts a throwaway ClickHouse server on loopback, its
// configuration and data in a temporary folder, and stops it when the
// test ends. The test skips, naming the package, without a server.
func startClickHouse(t *testing.T) *clickhouse {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "config.xml")
	cmd := chServer(config)
	if cmd == nil {
		t.Skip("no ClickHouse server: install Debian's clickhouse-server package (apt-get install clickhouse-server)")
	}
	httpPort, err1 := freePort()
	tcpPort, err2 := freePort()
	if err1 != nil || err2 != nil {
		t.Skipf("clickhouse: no free loopback port: %v %v", err1, err2)
	}
	if err := os.WriteFile(config, []byte(fmt.Sprintf(chConfig, dir, httpPort, tcpPort)), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users.xml"), []byte(chUsers), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd.Dir = dir
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Skipf("clickhouse: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		out.Close()
	})
	ch := &clickhouse{url: fmt.Sprintf("http://127.0.0.1:%d/", httpPort)}
	if err := ch.await(exited); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		std, _ := os.ReadFile(filepath.Join(dir, "stdout"))
		t.Fatalf("clickhouse: %v\n%s%s", err, std, log)
	}
	return ch
}

// await waits up to a minute for the server to answer a query, and
// reads its version.
func (ch *clickhouse) await(exited <-chan error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		v, err := ch.query("SELECT version()", nil)
		if err == nil {
			ch.version = strings.TrimSpace(v)
			return nil
		}
		select {
		case e := <-exited:
			return fmt.Errorf("the server exited: %v", e)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within a minute: %v", err)
		}
	}
}

// query runs one statement, the query string's parameters (settings) in
// params and the statement with its data in the body, and returns the
// answer.
func (ch *clickhouse) query(body string, params url.Values) (string, error) {
	resp, err := http.Post(ch.url+"?"+params.Encode(), "text/plain", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %s: %.2000s", resp.Status, b)
	}
	return string(b), nil
}

// hasDateTime64 is whether the server has DateTime64 (ClickHouse 20.1
// and later), the type current tables keep sub-second times in.
func (ch *clickhouse) hasDateTime64() bool {
	parts := strings.SplitN(ch.version, ".", 2)
	major, _ := strconv.Atoi(parts[0])
	return major >= 20
}
