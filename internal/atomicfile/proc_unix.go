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

// running reports whether a process with this id exists.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
