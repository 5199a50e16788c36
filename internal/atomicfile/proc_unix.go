//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// umask returns the process's file mode creation mask. It reads it from
// /proc (Linux), where reading does not change it; elsewhere it sets and
// restores it.
func umask() fs.FileMode {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return fs.FileMode(m)
				}
			}
		}
	}
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return fs.FileMode(m)
}

// running reports whether a process with this id exists and is not a
// zombie (killed, not yet reaped by its parent).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc (or it vanished just now): say it runs
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) {
		return b[i+2] != 'Z' && b[i+2] != 'X'
	}
	return true
}

// lock takes an exclusive lock on f, a temporary file being written;
// where locks are not supported, the writer's process id alone marks it
// as taken.
func lock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// lockFree reports whether no process holds a lock on f (it takes the
// lock to find out, dropped when f is closed); true where locks are not
// supported.
func lockFree(f *os.File) bool {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return !errors.Is(err, syscall.EWOULDBLOCK)
}
