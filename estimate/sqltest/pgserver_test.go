package sqltest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// startPostgres starts a throwaway PostgreSQL server on loopback with
// Debian's binaries (as the postgres user when run as root, which the
// server refuses to be) and returns its URL; it stops the server when
// the test ends. The test skips, naming the package to install, when no
// server can be started.
func startPostgres(t *testing.T) string {
	t.Helper()
	bin := postgresBin()
	if bin == "" {
		t.Skip("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql package (apt-get install postgresql) or set POLLFIT_PG_URL")
	}
	dir, err := os.MkdirTemp("", "pollfit-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	as, err := serverUser(dir)
	if err != nil {
		t.Skipf("postgres: %v; run as a user other than root, or install Debian's postgresql package (apt-get install postgresql), which creates the postgres user", err)
	}
	port, err := freePort()
	if err != nil {
		t.Skipf("postgres: no free loopback port: %v", err)
	}
	data := filepath.Join(dir, "data")
	if out, err := run(as, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		t.Skipf("postgres: initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off", port, dir)
	pgctl := filepath.Join(bin, "pg_ctl")
	if out, err := run(as, pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Skipf("postgres: pg_ctl start: %v\n%s%s", err, out, log)
	}
	t.Cleanup(func() { run(as, pgctl, "-D", data, "-m", "immediate", "-w", "stop") })
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// postgresBin is the folder of the newest installed server's binaries.
func postgresBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// serverUser is the user to run the server as: "" for the current one,
// postgres when running as root, given dir to own.
func serverUser(dir string) (string, error) {
	if os.Geteuid() != 0 {
		return "", nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return "", fmt.Errorf("running as root and no postgres user to run the server as (%v)", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return "", fmt.Errorf("chown %s: %v", dir, err)
	}
	return "postgres", nil
}

// run runs a command, as user as when not "".
func run(as, name string, args ...string) ([]byte, error) {
	if as != "" {
		args = append([]string{"-u", as, "--", name}, args...)
		name = "runuser"
	}
	return exec.Command(name, args...).CombinedOutput()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
