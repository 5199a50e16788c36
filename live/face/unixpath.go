package face

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"time"
)

// ErrPathInUse reports a path a Unix listener may not take: something
// that is not a socket, or a socket another program accepts on.
var ErrPathInUse = errors.New("path in use")

// ClaimUnixPath makes path free for a Unix listener without destroying
// anything: nothing there is fine; a stale socket (a socket file whose
// connect is refused: its listener is gone) is removed; anything else — a
// regular file, a directory, a symbolic link, a socket someone accepts
// on, a socket that cannot be probed — is left as it is and reported
// with ErrPathInUse.
func ClaimUnixPath(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("%s: %w: it exists and is not a socket (%s); remove it or choose another path", path, ErrPathInUse, fileType(st.Mode()))
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%s: %w: another program (a forwarder?) accepts connections there", path, ErrPathInUse)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%s: %w: a socket whose listener cannot be probed (%v); remove it if it is stale", path, ErrPathInUse, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: remove the stale socket: %w", path, err)
	}
	return nil
}

// fileType names a file's type for a message.
func fileType(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeDevice != 0:
		return "a device"
	default:
		return "type " + t.String()
	}
}
