package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startFw runs `ndncc fw` with args until the test ends and waits until
// its Unix socket accepts connections. It returns the socket's transport
// URI and a function that stops the forwarder and returns what it did.
func startFw(t *testing.T, args ...string) (string, func() cliResult) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ndnccfw-") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "fw.sock")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan cliResult, 1)
	go func() {
		done <- runCLI(ctx, nil, append([]string{"fw", "--socket", sock, "--udp", "none", "--tcp", "none"}, args...)...)
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
	return "unix://" + sock, stop
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

// TestFwBadConfiguration checks that a configuration error is a usage
// error (exit 2) at the file's line.
func TestFwBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"syntax", "queue = codel", "fw.toml:1"},
		{"unknown strategy", "strategy = \"fastest\"", "unknown strategy \"fastest\""},
		{"unknown queue parameter", "queue = \"codel-mark\"\nqueue-params = { tagret = \"5ms\" }", "has no parameter \"tagret\""},
		{"unknown face queue", "[[face]]\nremote = \"udp4://127.0.0.1:1\"\nqueue = \"red\"", "fw.toml:1: face[0]: aqm: unknown queue discipline \"red\""},
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
