package emu

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// killGrace is how long a program has to end after SIGTERM before it gets
// SIGKILL.
const killGrace = 2 * time.Second

// proc is a program running on a node, in a process group of its own so
// that its children end with it.
type proc struct {
	e      Exec
	cmd    *exec.Cmd
	done   chan struct{}
	res    ExecResult
	killed bool // by the emulator, before it ended
	mu     sync.Mutex
}

// startProc starts e's program on nd (/bin/sh -c COMMAND, with ExecEnv
// set to nd's socket); its end is recorded in res, and done closed.
func (r *run) startProc(e Exec, nd *node) *proc {
	p := &proc{e: e, done: make(chan struct{}), res: ExecResult{Node: e.Node, Command: e.Command, ExitCode: -1}}
	p.cmd = exec.Command("/bin/sh", "-c", e.Command)
	p.cmd.Env = append(os.Environ(), ExecEnv+"="+nd.transport())
	p.cmd.Stdout, p.cmd.Stderr = r.opt.Stdout, r.opt.Stderr
	if e.output != nil { // a program flow's or producer's: its summary is read
		p.cmd.Stderr = tee(p.cmd.Stderr, e.output)
	}
	if e.stdout != nil {
		p.cmd.Stdout = e.stdout
	}
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.WaitDelay = killGrace // output a leftover child holds open
	start := time.Now()
	if err := p.cmd.Start(); err != nil {
		p.res.Error = err.Error()
		close(p.done)
		return p
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(p.done)
		err := p.cmd.Wait()
		p.res.DurationS = time.Since(start).Seconds()
		p.res.ExitCode = p.cmd.ProcessState.ExitCode()
		p.mu.Lock()
		killed := p.killed
		p.mu.Unlock()
		var exitErr *exec.ExitError
		switch {
		case killed:
			p.res.Error = "stopped by the emulator at the end of the run"
		case err != nil && !errors.As(err, &exitErr):
			p.res.Error = err.Error()
		case p.res.ExitCode != 0:
			p.res.Error = err.Error()
		}
	}()
	return p
}

// failed reports whether the program failed on its own: it did not start,
// or exited with a non-zero status before the emulator stopped it.
func (p *proc) failed() bool {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.res.Error != "" && !p.killed
}

// kill stops what is left of the program's process group, the program
// or processes it started: SIGTERM, then SIGKILL after killGrace, and
// returns once the group is gone (or, if only unreaped zombies keep it,
// a second after SIGKILL). A program still running is marked killed.
func (p *proc) kill() {
	if p.cmd.Process == nil {
		return // never started
	}
	pgid := p.cmd.Process.Pid
	if !groupExists(pgid) {
		return
	}
	select {
	case <-p.done:
	default:
		p.mu.Lock()
		p.killed = true
		p.mu.Unlock()
	}
	syscall.Kill(-pgid, syscall.SIGTERM)
	if waitGroupGone(pgid, killGrace) {
		return
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	waitGroupGone(pgid, time.Second)
}

// groupExists reports whether process group pgid has a member.
func groupExists(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

// waitGroupGone waits up to d for process group pgid to empty, and
// reports whether it did.
func waitGroupGone(pgid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !groupExists(pgid) {
			return true
		}
	}
	return !groupExists(pgid)
}
