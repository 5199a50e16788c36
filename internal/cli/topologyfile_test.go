package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTopologyFileAlone: a Mini-NDN .conf given where a scenario goes is
// loaded (its own errors reported at their lines) and then refused with
// exit 2 and what to add; emu refuses it without --hold too.
func TestTopologyFileAlone(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.conf")
	if err := os.WriteFile(bad, []byte("[nodes]\na: _\n[links]\na:b delay=10ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"sim", "../../examples/linear.conf"}, []string{"is a Mini-NDN topology", "[[consumer]]", `file = "../../examples/linear.conf"`}},
		{[]string{"emu", "../../examples/linear.conf"}, []string{"is a Mini-NDN topology", "--hold"}},
		{[]string{"sim", bad}, []string{"bad.conf:4"}},
	}
	for _, tt := range tests {
		_, err := run(t, tt.args...)
		if exitCode(err) != 2 {
			t.Errorf("%v: error %v (exit %d), want exit 2", tt.args, err, exitCode(err))
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not say %q", tt.args, err, w)
			}
		}
	}
}
