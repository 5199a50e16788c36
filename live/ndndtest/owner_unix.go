//go:build unix

package ndndtest

import (
	"os"
	"syscall"
)

// ownerOf returns the uid that owns a file.
func ownerOf(st os.FileInfo) (int, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(sys.Uid), true
}
