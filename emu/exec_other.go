//go:build !linux

package emu

import (
	"os/exec"
	"syscall"
)

// groupAttr puts a program in a process group of its own (no Pdeathsig
// here: the watchdog alone ends it if the emulator dies).
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// startCmd starts cmd.
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
