//go:build linux

package face

import (
	"errors"
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
	rc := rawConn(conn)
	if rc == nil {
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
	return ioctlCount(rc, req), sndbuf
}

// ReceiveQueue returns a function that reads how many bytes wait in
// conn's kernel receive buffer (SIOCINQ; on a UDP socket, the size of the
// first datagram), or nil if conn has no file descriptor.
func ReceiveQueue(conn any) func() int {
	rc := rawConn(conn)
	if rc == nil {
		return nil
	}
	return ioctlCount(rc, unix.SIOCINQ)
}

// rawConn returns conn's file descriptor access, or nil if it has none.
func rawConn(conn any) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// ioctlCount returns a function that reads a count of rc's socket with
// ioctl req (0 when the call fails).
func ioctlCount(rc syscall.RawConn, req uint) func() int {
	return func() int {
		n := 0
		_ = rc.Control(func(fd uintptr) {
			v, err := unix.IoctlGetInt(int(fd), req)
			if err == nil {
				n = v
			}
		})
		return n
	}
}

// directWriter returns a function that writes frames to conn with one
// writev(2) that never blocks: it returns the bytes the socket took (0
// when its buffer is full). nil if conn has no file descriptor.
func directWriter(conn any) func(iov [][]byte) (int, error) {
	rc := rawConn(conn)
	if rc == nil {
		return nil
	}
	return func(iov [][]byte) (n int, err error) {
		werr := rc.Write(func(fd uintptr) bool {
			n, err = unix.Writev(int(fd), iov)
			return true // never wait for the socket: the writer goroutine does
		})
		switch {
		case n < 0:
			n = 0
		case werr != nil && err == nil:
			err = werr
		}
		if errors.Is(err, unix.EAGAIN) {
			err = nil
		}
		return n, err
	}
}
