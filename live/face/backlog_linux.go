//go:build linux

package face

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// kernelBacklog returns a function that reads the bytes waiting in conn's
// kernel send queue, and conn's send buffer size (0 if unknown): NFD's
// measure of a face's backlog. TCP counts only bytes not yet sent
// (SIOCOUTQNSD), since sent bytes awaiting their acknowledgement are the
// network's, not a queue; Unix and UDP sockets count all they hold
// (SIOCOUTQ, which is TIOCOUTQ). nil if conn has no file descriptor.
func kernelBacklog(conn any, scheme string) (func() int, int) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil, 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, 0
	}
	req := uint(unix.SIOCOUTQ)
	if scheme == "tcp4" || scheme == "tcp6" || scheme == "tcp" {
		req = unix.SIOCOUTQNSD
	}
	sndbuf := 0
	_ = rc.Control(func(fd uintptr) {
		sndbuf, _ = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_SNDBUF)
	})
	return func() int {
		n := 0
		_ = rc.Control(func(fd uintptr) {
			v, err := unix.IoctlGetInt(int(fd), req)
			if err == nil {
				n = v
			}
		})
		return n
	}, sndbuf
}
