package emu

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// killGrace is how long a program has to end after SIGTERM before it gets
// SIGKILL.
const killGrace = 2 * time.Second

// proc is a program running on a node, in a process group of its own so
// that its children end with it.
//
// Its end does not depend on the emulator ending well: the program gets
// SIGKILL when the emulator dies, however it dies (Pdeathsig, Linux), and
// a watchdog — a shell in a group of its own, reading a pipe only the
// emulator writes — kills the program's whole group once that pipe
// closes, which the kernel does when the emulator is killed (SIGKILL
// included). The command itself waits behind a gate until the watchdog is
// in place, so that no child it starts can outlive an emulator killed in
// between. At a normal end kill stops the group and then the watchdog.
type proc struct {
	e      Exec
	cmd    *exec.Cmd
	done   chan struct{}
	res    ExecResult
	killed bool // by the emulator, before it ended
	mu     sync.Mutex
	// watchdog kills the group if the emulator dies; nil if it could not
	// start. guard is the pipe's write end, closed by kill.
	watchdog *exec.Cmd
	guard    *os.File
	stopOnce sync.Once
}

// startProc starts e's program on nd (/bin/sh, which runs COMMAND behind
// gateScript, with ExecEnv set to nd's socket); its end is recorded in
// res, and done closed.
func (r *run) startProc(e Exec, nd *node) *proc {
	p := &proc{e: e, done: make(chan struct{}), res: ExecResult{Node: e.Node, Command: e.Command, ExitCode: -1}}
	// The shell runs the command only once the gate opens, after the
	// watchdog is in place: a program killed with the emulator before
	// then has started nothing that could outlive it.
	gate, open, err := os.Pipe()
	if err != nil {
		p.res.Error = "did not start: " + err.Error()
		close(p.done)
		return p
	}
	p.cmd = exec.Command("/bin/sh", "-c", gateScript, e.Command)
	p.cmd.ExtraFiles = []*os.File{gate} // the shell's fd 3
	p.cmd.Env = append(os.Environ(), ExecEnv+"="+nd.transport())
	p.cmd.Stdout, p.cmd.Stderr = r.opt.Stdout, r.opt.Stderr
	if e.output != nil { // a program flow's or producer's: its summary is read
		p.cmd.Stderr = tee(p.cmd.Stderr, e.output)
	}
	if e.stdout != nil {
		p.cmd.Stdout = e.stdout
	}
	p.cmd.SysProcAttr = groupAttr()
	p.cmd.WaitDelay = killGrace // output a leftover child holds open
	start := time.Now()
	err = startCmd(p.cmd)
	gate.Close()
	if err != nil {
		open.Close()
		p.res.Error = "did not start: " + err.Error()
		close(p.done)
		return p
	}
	p.startWatchdog()
	open.Write([]byte{'\n'}) // (without a watchdog, Pdeathsig still holds)
	open.Close()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(p.done)
		err := p.cmd.Wait()
		if !groupExists(p.cmd.Process.Pid) {
			// Nothing left to guard: a watchdog kept now could one day
			// kill a group that reuses the number.
			p.stopWatchdog()
		}
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
			p.res.Error = exitText(p.cmd.ProcessState)
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
	defer p.stopWatchdog()
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

// gateScript runs the command ($0) once a line arrives on fd 3, the gate
// the emulator opens after starting the watchdog; if the gate closes
// without one (the emulator died first), the shell exits and runs
// nothing.
const gateScript = `IFS= read -r _ <&3 || exit 125; exec 3<&-; eval "$0"`

// watchdogScript waits until its standard input closes (the emulator
// closed it, or died), then kills process group $0 — the program's
// (no "--": dash's kill takes none).
const watchdogScript = `read _ ; kill -KILL -"$0" 2>/dev/null`

// startWatchdog starts p's watchdog; without one (it could not start) the
// program still gets Pdeathsig where there is one.
func (p *proc) startWatchdog() {
	rd, wr, err := os.Pipe()
	if err != nil {
		return
	}
	defer rd.Close()
	w := exec.Command("/bin/sh", "-c", watchdogScript, strconv.Itoa(p.cmd.Process.Pid))
	w.Stdin = rd // and no output: it has nothing to say
	// Its own group: a terminal's ^C, meant for the emulator, must not end
	// it before the emulator has stopped the program.
	w.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := w.Start(); err != nil {
		wr.Close()
		return
	}
	p.watchdog, p.guard = w, wr
}

// stopWatchdog ends p's watchdog (SIGKILL: it must not kill a group whose
// number may be reused once the program is gone) and closes its pipe.
func (p *proc) stopWatchdog() {
	p.stopOnce.Do(func() {
		if p.watchdog == nil {
			return
		}
		p.watchdog.Process.Kill()
		p.watchdog.Wait()
		p.guard.Close()
	})
}

// exitText says how a program ended: "exited with status N", or "killed
// by signal NAME" (never exec's "status -1").
func exitText(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by signal " + signalName(ws.Signal())
	}
	return fmt.Sprintf("exited with status %d", ps.ExitCode())
}

// signalName names a signal as kill -l does: KILL, TERM, SEGV.
func signalName(sig syscall.Signal) string {
	if name := unix.SignalName(sig); name != "" {
		return strings.TrimPrefix(name, "SIG")
	}
	return strconv.Itoa(int(sig))
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
