//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// umask is the usual 022 where there is none to read.
func umask() fs.FileMode { return 0o022 }

// running cannot tell here: no temporary file is taken for stale.
func running(int) bool { return true }

// lock does nothing where there are no advisory locks.
func lock(*os.File) {}

// lockFree cannot tell here.
func lockFree(*os.File) bool { return true }
