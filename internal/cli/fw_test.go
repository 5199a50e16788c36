package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/ndn"
)

// startFw runs `ndncc fw` with args until the test ends and waits until
// its Unix socket accepts connections. It returns the socket's transport
// URI and a function that stops the forwarder and returns what it did.
func startFw(t *testing.T, args ...string) (string, func() cliResult) {
	t.Helper()
	uri, stop, _ := startFwOutput(t, args...)
	return uri, stop
}

// startFwOutput is startFw that also returns the forwarder's standard
// output as it is written.
func startFwOutput(t *testing.T, args ...string) (string, func() cliResult, *syncBuffer) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ndnccfw-") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "fw.sock")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan cliResult, 1)
	var stdout, stderr syncBuffer
	go func() {
		done <- runCLIWith(ctx, nil, &stdout, &stderr, append([]string{"fw", "--socket", sock, "--udp", "none", "--tcp", "none"}, args...)...)
	}()
	var res *cliResult
	stop := func() cliResult {
		if res == nil {
			cancel()
			r := <-done
			res = &r
		}
		return *res
	}
	t.Cleanup(func() { stop() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		select {
		case r := <-done:
			t.Fatalf("fw exited %d: %v\n%s", r.code, r.err, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("fw not listening after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "unix://" + sock, stop, &stdout
}

// TestFwStartsAndStops runs the forwarder with no configuration: it
// listens on --socket, and at an interrupt exits 0 with its counters.
func TestFwStartsAndStops(t *testing.T) {
	_, stop := startFw(t)
	r := stop()
	if r.code != 0 {
		t.Fatalf("exit %d: %v\n%s", r.code, r.err, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "fw: up ") || !strings.Contains(r.stderr, "listening") {
		t.Errorf("stdout %q, stderr %q: want the status line and the listener", r.stdout, r.stderr)
	}
}

// TestFwStatusOnSIGUSR1 sends the running forwarder SIGUSR1: it prints
// its counters, one line for itself and one per face, and keeps running.
func TestFwStatusOnSIGUSR1(t *testing.T) {
	uri, stop, stdout := startFwOutput(t)
	conn, err := net.Dial("unix", strings.TrimPrefix(uri, "unix://")) // one face to list
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "  face ") {
		if time.Now().After(deadline) {
			t.Fatalf("no status with a face line after SIGUSR1: %q", stdout.String())
		}
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if c, err := net.Dial("unix", strings.TrimPrefix(uri, "unix://")); err != nil {
		t.Errorf("the forwarder stopped listening after SIGUSR1: %v", err)
	} else {
		c.Close()
	}
	if r := stop(); r.code != 0 || !strings.Contains(r.stdout, "management: ") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestFwBadConfiguration checks that a configuration error is a usage
// error (exit 2) at the file's line.
func TestFwBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"syntax", "queue = codel", "fw.toml:1"},
		{"unknown strategy", "strategy = \"fastest\"", "unknown strategy \"fastest\""},
		{"unknown queue parameter", "queue = \"codel-mark\"\nqueue-params = { tagret = \"5ms\" }", "has no parameter \"tagret\""},
		{"unknown face queue", "[[face]]\nremote = \"udp4://127.0.0.1:1\"\nqueue = \"red\"", "fw.toml:1: face[0]: aqm: unknown queue discipline \"red\""},
		{"udp6 face", "[[face]]\nremote = \"udp6://[::1]:6363\"", "udp6 is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "fw.toml")
			if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			r := runCLI(context.Background(), nil, "fw", "--config", file, "--socket", filepath.Join(dir, "s"))
			if r.code != 2 || !strings.Contains(r.err.Error(), tc.want) {
				t.Errorf("exit %d, error %v; want 2 and %q", r.code, r.err, tc.want)
			}
		})
	}
}

// fwTransferSize is the size of the files the CLI tests move through
// `ndncc fw`: the 50 MB with NDNCC_FW_LONG set, else 3 MB.
func fwTransferSize() int {
	if os.Getenv("NDNCC_FW_LONG") != "" {
		return 50 * 1000 * 1000
	}
	return 3*1000*1000 + 17
}

// TestFwServeFetchAndNdndTools runs `ndncc fw --socket S` with no
// configuration, then through it: `ndncc serve` → `ndncc fetch` with
// every pipeline, and `ndnd put` → `ndnd cat`, each byte-identical. The
// producers register their prefixes through the forwarder's NFD
// management: ndncc serve with its signed rib/register, ndnd put with
// ndnd's own client, unchanged.
func TestFwServeFetchAndNdndTools(t *testing.T) {
	uri, stop := startFw(t)
	content := randomContent(fwTransferSize(), 21)
	dir := t.TempDir()
	file := filepath.Join(dir, "served.bin")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	startServe(t, "/fw/serve", file, "--transport", uri)
	for _, pipeline := range cc.Pipelines() {
		t.Run("fetch-"+pipeline, func(t *testing.T) {
			out := filepath.Join(dir, pipeline+".bin")
			args := []string{"fetch", "/fw/serve", "--transport", uri, "-o", out, "-p", pipeline}
			if pipeline == "fixed" {
				args = append(args, "-s", "64")
			}
			r := runCLI(context.Background(), nil, args...)
			if r.code != 0 {
				t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
			}
			if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, content) {
				t.Fatalf("fetched %d bytes (%v), want the %d served", len(got), err, len(content))
			}
		})
	}
	t.Run("ndnd-put-cat", func(t *testing.T) {
		env := append(os.Environ(), "NDN_CLIENT_TRANSPORT="+uri)
		startNdndPut(t, env, "/fw/ndnd", content)
		cat := exec.Command(ndndtest.Binary(t), "cat", "/fw/ndnd")
		cat.Env = env
		var stderr bytes.Buffer
		cat.Stderr = &stderr
		got, err := cat.Output()
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("ndnd cat got %d bytes (%v), want %d:\n%s", len(got), err, len(content), stderr.String())
		}
	})
	r := stop()
	if r.code != 0 {
		t.Fatalf("fw exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	if !strings.Contains(r.stdout, "responses 2×200") {
		t.Errorf("status: want the two registrations answered 200:\n%s", r.stdout)
	}
	t.Logf("%s", r.stdout)
}

// TestFwSocketDestroysNothing checks that --socket takes its path only
// when it is free or a stale socket: a regular file or a socket another
// forwarder accepts on is refused with exit 2 and left as it was.
func TestFwSocketDestroysNothing(t *testing.T) {
	dir, err := os.MkdirTemp("", "ndnccfw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	live, _ := startFw(t)
	liveSock := strings.TrimPrefix(live, "unix://")
	file := filepath.Join(dir, "F")
	if err := os.WriteFile(file, []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"regular file", file, "not a socket"},
		{"live socket", liveSock, "accepts connections"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.Lstat(tc.path)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r := runCLI(ctx, nil, "fw", "--socket", tc.path, "--udp", "none", "--tcp", "none")
			if r.code != 2 || !strings.Contains(r.err.Error(), tc.want) {
				t.Fatalf("exit %d: %v, want 2 and %q", r.code, r.err, tc.want)
			}
			after, err := os.Lstat(tc.path)
			if err != nil || !os.SameFile(before, after) {
				t.Fatalf("%s was replaced or removed: %v", tc.path, err)
			}
		})
	}
	if b, _ := os.ReadFile(file); string(b) != "data\n" {
		t.Errorf("the file holds %q, want %q", b, "data\n")
	}
	if c, err := net.Dial("unix", liveSock); err != nil {
		t.Errorf("the running forwarder's socket no longer accepts: %v", err)
	} else {
		c.Close()
	}
}

// TestFwConfigCheckedBeforeStart checks that faces that cannot work are
// refused before the forwarder starts, with exit 2 naming the file and
// the line: a remote that does not resolve, an address of the wrong
// family, a UDP face with the UDP listener off.
func TestFwConfigCheckedBeforeStart(t *testing.T) {
	dir := shortTempDir(t)
	for _, tc := range []struct {
		name, face string
		args       []string
		want       string // after "FILE:"
	}{
		{"unresolvable", `remote = "udp4://no.such.host.invalid:6363"`, nil, `5: face[0].remote: udp4://no.such.host.invalid:6363: cannot resolve "no.such.host.invalid"`},
		{"wrong family", `remote = "tcp4://[::1]:6363"`, nil, `5: face[0].remote: tcp4://[::1]:6363: ::1 is not an ip4 address`},
		{"UDP listener off", `remote = "udp4://127.0.0.1:6363"`, []string{"--udp", "none"}, `3: face[0]: udp4://127.0.0.1:6363: a UDP face sends from the UDP listener's socket, and the UDP listener is off`},
		{"own UDP listener", `remote = "udp4://127.0.0.1:17999"`, []string{"--udp", "0.0.0.0:17999"}, `5: face[0].remote: udp4://127.0.0.1:17999 is this forwarder's own udp listener (0.0.0.0:17999)`},
		{"own TCP listener", `remote = "tcp4://127.0.0.1:17999"`, []string{"--tcp", "127.0.0.1:17999"}, `5: face[0].remote: tcp4://127.0.0.1:17999 is this forwarder's own tcp listener (127.0.0.1:17999)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "fw.toml")
			src := "udp = \"127.0.0.1:0\"\n\n[[face]]\nid = \"peer\"\n" + tc.face + "\n\n[[route]]\nprefix = \"/a\"\nface = \"peer\"\n"
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			args := append([]string{"fw", "--config", file, "--socket", filepath.Join(dir, "s"), "--tcp", "none"}, tc.args...)
			r := runCLI(ctx, nil, args...)
			if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), file+":"+tc.want) {
				t.Fatalf("exit %d: %v\nwant 2 and %q", r.code, r.err, file+":"+tc.want)
			}
			if _, err := os.Lstat(filepath.Join(dir, "s")); err == nil {
				t.Error("the forwarder opened its socket before failing")
			}
		})
	}
}

// TestFwContentStoreInfo fetches an object twice through `ndncc fw` with
// a Content Store of 500 Data: the first fetch misses, the second is
// answered from the store; then the cs/info dataset (what `nfdc cs info`
// reads) reports the configured capacity and the hits and misses, the
// same figures the forwarder's status line prints.
func TestFwContentStoreInfo(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "fw.toml")
	if err := os.WriteFile(conf, []byte("cs-capacity = 500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uri, stop := startFw(t, "--config", conf)
	content := randomContent(200_000, 5)
	file := filepath.Join(dir, "served.bin")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	startServe(t, "/cs/obj", file, "--transport", uri)
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("copy%d", i))
		if r := runCLI(context.Background(), nil, "fetch", "/cs/obj", "--transport", uri, "-o", out); r.code != 0 {
			t.Fatalf("fetch %d exited %d: %v\n%s", i, r.code, r.err, r.stderr)
		}
	}
	info := csInfo(t, uri)
	segments := uint64((len(content) + 8799) / 8800) // at most; serve's segments are no larger
	if info.Capacity != 500 || info.NHits < segments/2 || info.NMisses < segments/2 || info.NCsEntries == 0 {
		t.Errorf("cs/info: capacity %d, %d entries, %d hits, %d misses; want capacity 500, the second fetch's segments as hits and the first's as misses",
			info.Capacity, info.NCsEntries, info.NHits, info.NMisses)
	}
	r := stop()
	// (the dataset's own Data is cached too: one entry more)
	want := fmt.Sprintf("of 500 (hits %d, misses %d)", info.NHits, info.NMisses)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("status lacks %q:\n%s", want, r.stdout)
	}
}

// csInfo reads the forwarder's cs/info dataset.
func csInfo(t *testing.T, uri string) *nfd.CsInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := live.Connect(ctx, uri, live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	name, err := ndn.ParseName("/localhost/nfd/cs/info")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		d   *ndn.Data
		err error
	}
	got := make(chan answer, 1)
	conn.Loop.After(0, func() {
		conn.Endpoint.Express(live.Request{Name: name, CanBePrefix: true, MustBeFresh: true, Retries: 2}, func(d *ndn.Data, err error) {
			got <- answer{d, err}
			conn.Loop.Stop(nil)
		})
	})
	go conn.Loop.Run(ctx)
	a := <-got
	if a.err != nil {
		t.Fatalf("cs/info: %v", a.err)
	}
	msg, err := nfd.ParseCsInfoMsg(enc.NewBufferView(a.d.Content), false)
	if err != nil || msg.CsInfo == nil {
		t.Fatalf("cs/info: %v", err)
	}
	return msg.CsInfo
}
