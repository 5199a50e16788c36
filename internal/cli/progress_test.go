package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWorkProgressLines: on standard error that is a file but not a
// terminal, a line per finished unit; nothing with --quiet, nor on a
// buffer (a test's output, which may hold a JSON document).
func TestWorkProgressLines(t *testing.T) {
	tests := []struct {
		name  string
		quiet bool
		want  string
	}{
		{"file", false, "[1/2] seed000-linear design1 run 1: 37.6 s (sim)\n[2/2] seed000-linear design1 run 1: 0.2 s (live)\n"},
		{"quiet", true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stderr")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			p := newWorkProgress(f, tc.quiet, 2, "seed000-linear")
			p.Done("seed000-linear design1 run 1", 37600*time.Millisecond, "sim")
			p.Done("seed000-linear design1 run 1", 200*time.Millisecond, "live")
			p.Finish()
			f.Close()
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
	var buf bytes.Buffer
	p := newWorkProgress(&buf, false, 1, "x")
	p.Done("x", time.Second, "sim")
	if buf.Len() != 0 {
		t.Errorf("wrote %q to a buffer, want nothing", buf.String())
	}
}
