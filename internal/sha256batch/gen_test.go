package sha256batch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedIsCurrent: blocks_amd64.s is what gen.go writes now.
func TestGeneratedIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), "blocks.s")
	if b, err := exec.Command("go", "run", "gen.go", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("blocks_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("blocks_amd64.s differs from what gen.go writes: run go generate")
	}
}
