//go:build !unix

package ndndtest

import "os"

// ownerOf cannot tell a file's owner here: no file is trusted.
func ownerOf(os.FileInfo) (int, bool) { return 0, false }
