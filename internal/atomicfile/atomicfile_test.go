package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestWriteFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new contents")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new contents" {
		t.Fatalf("read %q, %v; want the new contents", got, err)
	}
	assertOnly(t, dir, "out.json")
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "object.bin")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("partial")); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("final name exists after Abort: %v", err)
	}
	assertOnly(t, dir)
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

func TestCreateInMissingDirectory(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "no", "such", "file")); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
}

// assertOnly checks that dir holds exactly the named files.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(names) {
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		t.Fatalf("directory holds %v, want %v", got, names)
	}
	for i, e := range ents {
		if e.Name() != names[i] {
			t.Errorf("file %d is %s, want %s", i, e.Name(), names[i])
		}
	}
}

func TestModeFollowsUmaskAndTheReplacedFile(t *testing.T) {
	// The output used to be 0644 whatever the umask or the file it
	// replaced.
	dir := t.TempDir()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	fresh := filepath.Join(dir, "fresh")
	if err := WriteFile(fresh, []byte("x")); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "kept")
	if err := os.WriteFile(kept, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(kept, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{fresh: 0o600, kept: 0o640} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", filepath.Base(path), st.Mode().Perm(), want)
		}
	}
}

func TestCreateRefusesADirectory(t *testing.T) {
	// -o naming a directory used to fail only at the rename, after the
	// whole download.
	dir := t.TempDir()
	if _, err := Create(dir); err == nil || !strings.Contains(err.Error(), "is not a regular file (a directory)") {
		t.Errorf("Create(a directory): %v", err)
	}
	assertOnly(t, dir)
}

func TestCreateRemovesStaleTemporaryFiles(t *testing.T) {
	// A killed writer leaves its temporary file; the next Create of the
	// same name removes it, but not one of a process still running.
	dir := t.TempDir()
	stale := ".out.bin.tmp-999999999-123"
	live := ".out.bin.tmp-" + strconv.Itoa(os.Getpid()) + "-456"
	other := ".other.tmp-999999999-1"
	for _, n := range []string{stale, live, other} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Create(filepath.Join(dir, "out.bin"))
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	assertOnly(t, dir, other, live) // in name order
}
