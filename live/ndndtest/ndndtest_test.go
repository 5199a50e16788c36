package ndndtest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPrivateRefusesWhatOthersControl(t *testing.T) {
	// A binary in a shared $TMPDIR used to be run whoever had put it
	// there.
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine")
	if err := os.WriteFile(mine, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	writable := filepath.Join(dir, "writable")
	if err := os.WriteFile(writable, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(writable, 0o777); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(mine, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		ok   bool
	}{
		{mine, true},
		{writable, false},
		{link, false},
		{filepath.Join(dir, "missing"), false},
	}
	if os.Getuid() == 0 { // root can give a file to another user
		theirs := filepath.Join(dir, "theirs")
		if err := os.WriteFile(theirs, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct {
			path string
			ok   bool
		}{theirs, false})
	}
	for _, tt := range tests {
		if err := private(tt.path); (err == nil) != tt.ok {
			t.Errorf("private(%s) = %v, want ok %v", filepath.Base(tt.path), err, tt.ok)
		}
	}
}
