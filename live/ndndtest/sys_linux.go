package ndndtest

import "syscall"

// sysProcAttr makes the kernel kill the forwarder if the test dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
