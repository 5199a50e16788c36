package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimVsLiveNamesTheCatalog checks that the "Sim vs live" section names
// every catalog experiment without a stored run: those the emulator
// refuses with the reason, the others with the command that runs them.
func TestSimVsLiveNamesTheCatalog(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := writeSimVsLive(&buf, dir); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"`seed003-tcp` (",
		"cannot run live: the scenario has TCP flows, which only the simulator models",
		"`seed004-overlay` (",
		"has an underlay, which only the simulator models",
		"`seed000-linear`",
		"not yet run live: `scripts/sim-vs-live.sh seed001-vegas`",
		"not yet run live: `scripts/sim-vs-live.sh seed004-icp`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "`seed003-tcp` (") && strings.Contains(got, "sim-vs-live.sh seed003-tcp") {
		t.Errorf("seed003-tcp, which cannot run live, is given a command to run it:\n%s", got)
	}
}

// TestSimVsLiveStoredRunIsATable checks that a stored run gets its table
// and is no longer listed as not run.
func TestSimVsLiveStoredRunIsATable(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"seed000-linear.json", "seed000-linear.machine.txt"} {
		b, err := os.ReadFile(filepath.Join("../../docs/sim-vs-live", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := writeSimVsLive(&buf, dir); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if !strings.Contains(got, "### `seed000-linear` — sim vs live") {
		t.Errorf("no table for the stored seed000-linear:\n%s", got)
	}
	if strings.Contains(got, "sim-vs-live.sh seed000-linear`") {
		t.Errorf("the stored seed000-linear is listed as not run:\n%s", got)
	}
}
