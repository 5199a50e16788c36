package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEmuKilledLeavesNothing kills `ndncc emu --exec ...` with SIGKILL
// while its programs run — one the shell runs in the foreground, one it
// started in the background (a grandchild of the emulator): both end
// with it, and the next `ndncc emu` run removes the killed run's
// temporary directory (and not the directory of a run still going).
func TestEmuKilledLeavesNothing(t *testing.T) {
	tmp := shortTempDir(t)
	pids := filepath.Join(tmp, "pids")
	if err := os.Mkdir(pids, 0o755); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(tmp, "runs")
	if err := os.Mkdir(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", runDir)
	// A directory of a run that still goes on (this test process owns
	// it): left alone.
	liveRun := filepath.Join(runDir, "ndncc-emu-live")
	if err := os.Mkdir(liveRun, 0o755); err != nil {
		t.Fatal(err)
	}
	owner, err := os.Create(filepath.Join(liveRun, "owner.pid"))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	fmt.Fprintf(owner, "%d\n", os.Getpid())
	if err := syscall.Flock(int(owner.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}

	command := fmt.Sprintf("echo $$ > %[1]s/sh; sleep 1000 & echo $! > %[1]s/bg; sleep 1000", pids)
	p := startProc(t, "emu", linearExample, "--set", "duration=120s", "--set", "producer[0].signature=digest",
		"--exec", "consumer1="+command)
	var procs []int
	waitFor(t, 60*time.Second, "the programs to start", func() bool {
		procs = procs[:0]
		for _, f := range []string{"sh", "bg"} {
			b, err := os.ReadFile(filepath.Join(pids, f))
			pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || perr != nil {
				return false
			}
			procs = append(procs, pid)
		}
		return true
	})
	t.Cleanup(func() { // whatever the test found
		for _, pid := range procs {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	runs, _ := filepath.Glob(filepath.Join(runDir, "ndncc-emu-*"))
	if len(runs) != 2 {
		t.Fatalf("run directories while emu runs: %v, want the live one and emu's", runs)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done: // its standard error closed: the programs that held it too
	case <-time.After(10 * time.Second):
		t.Fatal("the emulator's standard error still open 10 s after SIGKILL: its programs outlived it")
	}
	waitFor(t, 10*time.Second, "the programs to end with the emulator", func() bool {
		for _, pid := range procs {
			if processRuns(pid) {
				return false
			}
		}
		return true
	})

	// The next run removes the killed run's directory.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := runCLI(ctx, nil, "emu", linearExample, "--set", "producer[0].file-size=65536", "--set", "producer[0].signature=digest")
	if r.code != 0 {
		t.Fatalf("the next emu run exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	runs, _ = filepath.Glob(filepath.Join(runDir, "ndncc-emu-*"))
	if len(runs) != 1 || runs[0] != liveRun {
		t.Errorf("run directories after the next run: %v, want only %s", runs, liveRun)
	}
}

// processRuns reports whether process pid exists and is not a zombie.
func processRuns(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
