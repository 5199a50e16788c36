//go:build linux

package emu

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// netns is a network namespace of the run's own: the TCP tunnels'
// sockets and their shaped loopback live in it. One locked thread, which
// left the process's namespace for it, runs what must happen inside it
// (do); close ends that thread, and the namespace, with its qdiscs, goes
// when the last socket made in it has closed. The thread never returns to
// the process's namespace: in a user namespace (`unshare -r`) it could
// not, since the process's namespace belongs to the parent user
// namespace, so it ends instead, and it is never the process's main
// thread, which cannot end.
type netns struct {
	jobs chan func()
	done chan struct{}
}

// newNetns makes a network namespace (unshare(2) on a thread of its own).
// It needs CAP_SYS_ADMIN in the process's user namespace.
func newNetns() (*netns, error) {
	ns := &netns{jobs: make(chan func()), done: make(chan struct{})}
	errc := make(chan error, 1)
	go ns.serve(errc)
	if err := <-errc; err != nil {
		return nil, err
	}
	return ns, nil
}

// serve runs on a locked thread: it moves the thread to a new network
// namespace and runs do's functions there until close. It never unlocks
// the thread, so the thread ends with the goroutine.
func (ns *netns) serve(errc chan<- error) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		// The main thread cannot end. While this goroutine holds it, the
		// one started here runs on another thread.
		inner := make(chan error, 1)
		go ns.serve(inner)
		err := <-inner
		runtime.UnlockOSThread()
		errc <- err
		return
	}
	defer close(ns.done)
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		errc <- fmt.Errorf("unshare(CLONE_NEWNET): %w", err)
		return
	}
	errc <- nil
	for fn := range ns.jobs {
		fn()
	}
}

// do runs fn inside the namespace, on its thread: sockets fn opens
// belong to the namespace (they stay there whichever thread uses them
// later), and programs fn starts run in it.
func (ns *netns) do(fn func() error) error {
	errc := make(chan error, 1)
	ns.jobs <- func() { errc <- fn() }
	return <-errc
}

// close ends the namespace's thread; the namespace goes once its sockets
// have.
func (ns *netns) close() {
	close(ns.jobs)
	<-ns.done
}

// tunnelSupport reports what is missing to run TCP tunnels live: ip and
// tc (iproute2) on the PATH, and the right to make a network namespace.
// It makes one and drops it at once.
func tunnelSupport() error {
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("no %s (iproute2) to shape the tunnels' loopback: %w", tool, err)
		}
	}
	ns, err := newNetns()
	if err != nil {
		return fmt.Errorf("cannot make a network namespace (run as root, or under `unshare -r` where user namespaces are allowed): %w", err)
	}
	ns.close()
	return nil
}

// command runs a program (ip or tc, inside the namespace) and returns its
// error with its output.
func command(args ...string) error {
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// tuneSocket gives a tunnel's TCP socket the scenario's send buffer and
// CUBIC (tuneFD).
func tuneSocket(conn syscall.Conn, sndbuf int) error {
	rc, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = tuneFD(int(fd), sndbuf) }); err != nil {
		return err
	}
	return serr
}

// tuneFD gives TCP socket fd a send buffer of sndbuf bytes
// (SO_SNDBUFFORCE, which may pass net.core.wmem_max, else SO_SNDBUF;
// Linux doubles the value for its bookkeeping, as for any socket) and
// CUBIC, the simulator's TCP algorithm.
func tuneFD(fd, sndbuf int) error {
	if unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUFFORCE, sndbuf) != nil {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, sndbuf); err != nil {
			return fmt.Errorf("send buffer of %d bytes: %w", sndbuf, err)
		}
	}
	if err := unix.SetsockoptString(fd, unix.IPPROTO_TCP, unix.TCP_CONGESTION, "cubic"); err != nil {
		return fmt.Errorf("TCP congestion control cubic: %w", err)
	}
	return nil
}

// tuneProcessSocket tunes (tuneFD) the IPv4 TCP socket of process pid
// whose local port is port: it finds the socket's inode in the process's
// /proc/PID/net/tcp (its network namespace's), the descriptor that holds
// it in /proc/PID/fd, and sets the options on a copy of that descriptor
// (pidfd_getfd, which needs the right to ptrace the process: root). Socket
// options belong to the socket, not the descriptor, so the process's own
// descriptor sees them.
func tuneProcessSocket(pid, port, sndbuf int) error {
	inode, err := tcpInode(fmt.Sprintf("/proc/%d/net/tcp", pid), port)
	if err != nil {
		return err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return err
	}
	target := -1
	for _, e := range fds {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name())); err == nil && l == "socket:["+inode+"]" {
			target, _ = strconv.Atoi(e.Name())
			break
		}
	}
	if target < 0 {
		return fmt.Errorf("process %d holds no descriptor of socket inode %s", pid, inode)
	}
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return fmt.Errorf("pidfd_open(%d): %w", pid, err)
	}
	defer unix.Close(pidfd)
	fd, err := unix.PidfdGetfd(pidfd, target, 0)
	if err != nil {
		return fmt.Errorf("pidfd_getfd(%d, %d): %w", pid, target, err)
	}
	defer unix.Close(fd)
	return tuneFD(fd, sndbuf)
}

// tcpInode finds the inode of the socket whose local port is port in a
// /proc/net/tcp table.
func tcpInode(table string, port int) (string, error) {
	b, err := os.ReadFile(table)
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		if len(f) < 10 {
			continue
		}
		_, hexPort, ok := strings.Cut(f[1], ":")
		if p, err := strconv.ParseUint(hexPort, 16, 16); ok && err == nil && int(p) == port && f[9] != "0" {
			return f[9], nil
		}
	}
	return "", fmt.Errorf("%s has no socket on local port %d", table, port)
}
