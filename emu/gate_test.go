package emu

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGateScript runs a program's shell as the emulator starts it: the
// command runs only once a line arrives on the gate (fd 3); if the gate
// closes without one, as when the emulator dies before its watchdog is
// in place, the shell exits with status 125 and the command never runs.
func TestGateScript(t *testing.T) {
	for _, tc := range []struct {
		name   string
		open   bool
		ran    bool
		status int
	}{
		{"gate opened", true, true, 0},
		{"gate closed without a line", false, false, 125},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "ran")
			gate, open, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			// The command also checks that the gate is closed before it runs.
			cmd := exec.Command("/bin/sh", "-c", gateScript, `if { true <&3; } 2>/dev/null; then exit 9; fi; echo $$ > `+mark)
			cmd.ExtraFiles = []*os.File{gate}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			gate.Close()
			if tc.open {
				open.Write([]byte{'\n'})
			}
			open.Close()
			err = cmd.Wait()
			status := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				status = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(mark)
			if ran := statErr == nil; ran != tc.ran || status != tc.status {
				t.Errorf("command ran %v, status %d; want ran %v, status %d", ran, status, tc.ran, tc.status)
			}
		})
	}
}
