package emu

import (
	"os/exec"
	"testing"
)

// TestExitText checks how a program's end is told: a status, or the
// signal that killed it by name (never exec's "status -1").
func TestExitText(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"exit 0", "exited with status 0"},
		{"exit 3", "exited with status 3"},
		{"kill -KILL $$", "killed by signal KILL"},
		{"kill -TERM $$", "killed by signal TERM"},
		{"kill -SEGV $$", "killed by signal SEGV"},
	} {
		t.Run(tc.script, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", tc.script)
			_ = cmd.Run()
			if got := exitText(cmd.ProcessState); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
