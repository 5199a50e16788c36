package emu

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// groupAttr puts a program in a process group of its own and has the
// kernel send it SIGKILL when the emulator dies.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// starter starts programs from one goroutine locked to its thread for
// the life of the process: Pdeathsig fires when the thread that started
// the program ends, not the process, and Go ends a locked thread whose
// goroutine returns.
var starter struct {
	once sync.Once
	reqs chan startReq
}

type startReq struct {
	cmd  *exec.Cmd
	done chan error
}

// startCmd starts cmd from the starter's thread.
func startCmd(cmd *exec.Cmd) error {
	starter.once.Do(func() {
		starter.reqs = make(chan startReq)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for r := range starter.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	starter.reqs <- startReq{cmd, done}
	return <-done
}
