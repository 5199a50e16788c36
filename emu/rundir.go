package emu

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// runDirPrefix begins the name of a run's temporary directory (its
// nodes' sockets), in os.TempDir().
const runDirPrefix = "ndncc-emu-"

// ownerFile, in a run's directory, holds the running emulator's process
// id; the emulator holds an exclusive lock (flock) on it for the run.
const ownerFile = "owner.pid"

// runDir is a run's temporary directory, owned while the lock is held.
type runDir struct {
	path  string
	owner *os.File
}

// makeRunDir removes the directories of runs whose emulator is gone (it
// was killed before it could remove its own: SIGKILL, a crash), then
// makes this run's and takes it.
func makeRunDir() (*runDir, error) {
	removeStaleRunDirs(os.TempDir())
	path, err := os.MkdirTemp("", runDirPrefix)
	if err != nil {
		return nil, fmt.Errorf("emu: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(path, ownerFile), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(path)
		return nil, fmt.Errorf("emu: temporary directory %s: %w", path, err)
	}
	return &runDir{path: path, owner: f}, nil
}

// remove removes the directory and everything in it.
func (d *runDir) remove() {
	os.RemoveAll(d.path)
	d.owner.Close()
}

// removeStaleRunDirs removes the run directories in parent whose owner is
// gone: no process holds the owner file's lock and the process it names
// no longer runs. A directory without an owner file (being made, or not
// an emulator's) is left alone.
func removeStaleRunDirs(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), runDirPrefix) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if stale, _ := runDirStale(dir); stale {
			os.RemoveAll(dir)
		}
	}
}

// runDirStale reports whether dir's owner is gone.
func runDirStale(dir string) (bool, error) {
	f, err := os.Open(filepath.Join(dir, ownerFile))
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Sys().(*syscall.Stat_t).Uid != uint32(os.Getuid()) {
		return false, err // another user's: not ours to remove
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	b := make([]byte, 32)
	n, _ := f.Read(b)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return false, nil
	}
	return !processAlive(pid), nil
}

// processAlive reports whether process pid exists and is not a zombie.
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return true // no /proc here: the signal said it exists
	}
	if i := strings.LastIndexByte(string(b), ')'); err == nil && i >= 0 && i+2 < len(b) {
		return b[i+2] != 'Z' && b[i+2] != 'X'
	}
	return true
}
