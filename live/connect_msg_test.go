package live

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestUnreachableErrorSaysWhy checks that running out of file descriptors
// is told as such, not as a forwarder that does not run.
func TestUnreachableErrorSaysWhy(t *testing.T) {
	tr := Transport{Network: "unix", Address: "/run/nfd/nfd.sock"}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"refused", &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}, "is one running?"},
		{"EMFILE", fmt.Errorf("dial: %w", &os.SyscallError{Syscall: "socket", Err: syscall.EMFILE}), "out of file descriptors"},
		{"ENFILE", fmt.Errorf("dial: %w", &os.SyscallError{Syscall: "socket", Err: syscall.ENFILE}), "out of file descriptors"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := (&UnreachableError{Transport: tr, Err: tc.err}).Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%q lacks %q", msg, tc.want)
			}
		})
	}
}
