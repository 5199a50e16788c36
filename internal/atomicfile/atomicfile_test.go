package atomicfile

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestCreateWritesDevicesInPlace checks that a character device or a
// named pipe is written as it is: no temporary file, no rename, the
// device left a device.
func TestCreateWritesDevicesInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	for _, tc := range []struct {
		name, path string
		mode       fs.FileMode
	}{
		{"character device", os.DevNull, fs.ModeCharDevice},
		{"named pipe", fifo, fs.ModeNamedPipe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := WriteFile(tc.path, []byte("object\n")); err != nil {
				t.Fatalf("WriteFile(%s): %v", tc.path, err)
			}
			st, err := os.Stat(tc.path)
			if err != nil || st.Mode()&tc.mode == 0 {
				t.Fatalf("%s is no longer a %s: %v %v", tc.path, tc.name, st.Mode(), err)
			}
		})
	}
	select {
	case s := <-got:
		if s != "object\n" {
			t.Errorf("the pipe's reader got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pipe's reader got nothing")
	}
	assertOnly(t, dir, "fifo")
}

// TestCreateRemovesTheTemporaryFileOfAKilledWriter kills a writer (a
// child process) with SIGKILL while it writes, and leaves it unreaped (a
// zombie, whose process id still answers): the next Create of the same
// name removes its temporary file, since the writer's lock died with it.
func TestCreateRemovesTheTemporaryFileOfAKilledWriter(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_WRITER"); path != "" {
		f, err := Create(path)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		f.Write([]byte("partial"))
		fmt.Println("writing")
		time.Sleep(time.Minute)
		os.Exit(1)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.bin")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCreateRemovesTheTemporaryFileOfAKilledWriter$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_WRITER="+out)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "writing\n" {
		t.Fatalf("the writer said %q (%v)", line, err)
	}
	// A second writer while the first runs leaves the first's file.
	second, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("%d files while two writers run, want 2", len(ents))
	}
	second.Abort()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Not reaped: wait until it is a zombie.
	for deadline := time.Now().Add(10 * time.Second); running(cmd.Process.Pid); {
		if time.Now().After(deadline) {
			t.Fatal("the writer still runs 10 s after SIGKILL")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The leader thread turns zombie while the writer's other threads may
	// still be exiting; its lock (and so its file's staleness) goes with
	// the last of them. The next write removes the file once it is free.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if err := WriteFile(out, []byte("whole")); err != nil {
			t.Fatal(err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) == 1 || time.Now().After(deadline) {
			break
		}
	}
	assertOnly(t, dir, "out.bin")
}
