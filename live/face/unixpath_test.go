package face

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestClaimUnixPath checks that a Unix listener's path is taken only when
// it is free or holds a stale socket: a file, a directory or a live socket
// stays as it was.
func TestClaimUnixPath(t *testing.T) {
	dir, err := os.MkdirTemp("", "ndnccpath-") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, path string)
		inUse   bool // ErrPathInUse, and the path is left
		removed bool // the path is gone afterwards
	}{
		{name: "missing", setup: func(*testing.T, string) {}},
		{name: "regular file", inUse: true, setup: func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("data\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "directory", inUse: true, setup: func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "symlink to a socket path", inUse: true, setup: func(t *testing.T, p string) {
			if err := os.Symlink(filepath.Join(dir, "elsewhere"), p); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "stale socket", removed: true, setup: func(t *testing.T, p string) {
			ln, err := net.Listen("unix", p)
			if err != nil {
				t.Fatal(err)
			}
			ln.(*net.UnixListener).SetUnlinkOnClose(false)
			ln.Close()
		}},
		{name: "live socket", inUse: true, setup: func(t *testing.T, p string) {
			ln, err := net.Listen("unix", p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "s")
			os.RemoveAll(path)
			tc.setup(t, path)
			before, _ := os.Lstat(path)
			err := ClaimUnixPath(path)
			if got := errors.Is(err, ErrPathInUse); got != tc.inUse {
				t.Fatalf("ClaimUnixPath: %v, want in use %v", err, tc.inUse)
			}
			if !tc.inUse && err != nil {
				t.Fatal(err)
			}
			after, aerr := os.Lstat(path)
			switch {
			case tc.removed && aerr == nil:
				t.Error("the stale socket is still there")
			case tc.inUse && (aerr != nil || !os.SameFile(before, after)):
				t.Errorf("the path was changed: %v", aerr)
			}
			if tc.name == "regular file" {
				if b, _ := os.ReadFile(path); string(b) != "data\n" {
					t.Errorf("the file holds %q", b)
				}
			}
		})
	}
}
