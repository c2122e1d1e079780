package main

import (
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// Every secret of a server URL is masked where it is printed: the
// userinfo password and password=, sslpassword= and the like in the
// query string; the rest stays, to say which server.
func TestRedact(t *testing.T) {
	for _, c := range []struct {
		url, want string
		secrets   []string
	}{
		{"postgres://u:pw1@db:5432/pay", "postgres://u:xxxxx@db:5432/pay", []string{"pw1"}},
		{"postgres://u@127.0.0.1:54399/db?sslmode=disable&password=S3cretPW!", "postgres://u@127.0.0.1:54399/db?password=xxxxx&sslmode=disable", []string{"S3cretPW!", "S3cretPW%21"}},
		{"postgresql://u:a%40b@h/db?sslpassword=k3y&application_name=x", "postgresql://u:xxxxx@h/db?application_name=x&sslpassword=xxxxx", []string{"a@b", "a%40b", "k3y"}},
		{"postgres://h/db?PASSWORD=pq9&auth_token=tk7", "postgres://h/db?PASSWORD=xxxxx&auth_token=xxxxx", []string{"pq9", "tk7"}},
	} {
		if got := redact(c.url); got != c.want {
			t.Errorf("redact(%q) = %q, want %q", c.url, got, c.want)
		}
		msg := scrub("failed to connect to "+c.url+": password "+strings.Join(c.secrets, " ")+" rejected", c.url)
		for _, s := range c.secrets {
			if strings.Contains(msg, s) {
				t.Errorf("scrub kept %q of %q: %s", s, c.url, msg)
			}
		}
	}
}

// A server that accepts the connection and never answers: sketch --from
// gives up after --connect-timeout, names the flag, and prints no
// password.
func TestSketchFromSilentServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	url := "postgres://u@" + l.Addr().String() + "/db?sslmode=disable&password=S3cretPW!"
	start := time.Now()
	_, stderr, code := cliRun(t, "sketch", "--from", url, "--table", "payments", "--connect-timeout", "300ms", "-o", t.TempDir()+"/s.csv")
	took := time.Since(start)
	if code != 1 || !strings.Contains(stderr, "--connect-timeout 300ms") || strings.Contains(stderr, "S3cretPW") || took > 5*time.Second {
		t.Errorf("a silent server: exit %d after %v, %q; want exit 1 within seconds, naming --connect-timeout, without the password", code, took, stderr)
	}
}

// The flags' mistakes: a URL of another kind, timeouts, --table without
// --from.
func TestSketchFromFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "mysql://u:pw@h/db", "--table", "t"}, "want a postgres:// or postgresql:// URL"},
		{[]string{"--from", "postgres://h/db", "--table", "t", "--query-timeout", "0s"}, "want durations above 0"},
		{[]string{"--table", "t", "x.csv"}, "sketch: --table goes with --from"},
		{[]string{"--from", "postgres://h/db", "--table", "t; DROP TABLE x"}, `sql: --table "t; DROP TABLE x"`},
	} {
		_, stderr, code := cliRun(t, append([]string{"sketch", "-o", t.TempDir() + "/s.csv"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, ":pw@") {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// sketch --by honours --sample (it kept 32768 rows a part whatever the
// flag said): the first line says the size, and each part's item sample
// holds that many rows.
func TestSketchBySample(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := cliRun(t, "gen", "--model", "segmented", "-n", "3000", "--seed", "3", "-o", dir+"/mixed.csv"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := cliRun(t, "sketch", "--by", "method", "--sample", "7", "-o", dir+"/s.csv", dir+"/mixed.csv"); code != 0 {
		t.Fatal(stderr)
	}
	b, err := os.ReadFile(dir + "/s.csv")
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	if !strings.Contains(first, " sample=7 ") {
		t.Errorf("first line %q, want sample=7", first)
	}
	_, rows, _ := strings.Cut(rest, "part,status,age_s,created_ns,signal_s,weight\n")
	parts := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(rows), "\n") {
		p, _, _ := strings.Cut(l, ",")
		parts[p]++
	}
	if parts["fit"] != 7 || parts["heldout"] != 7 || len(parts) != 2 {
		t.Errorf("item sample rows by part: %v, want 7 fit and 7 heldout", parts)
	}
}
