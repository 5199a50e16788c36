package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// emuDoc is the part of `emu --json`'s document the tests read.
type emuDoc struct {
	Mode  string `json:"mode"`
	Flows []struct {
		ID       string `json:"id"`
		Complete bool   `json:"complete"`
		Bytes    uint64 `json:"bytes"`
		Error    string `json:"error"`
	} `json:"flows"`
	Links []struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"links"`
	Exec []struct {
		Node     string `json:"node"`
		ExitCode int    `json:"exit_code"`
		Error    string `json:"error"`
	} `json:"exec"`
}

// TestEmuJSONAndReport runs `ndncc emu` on linear-fixed32 with a 256 KiB
// file: the JSON document is the simulator's with "mode": "live", the
// flow completes with every byte, and --out writes result.json (the same
// document), the traces and index.html.
func TestEmuJSONAndReport(t *testing.T) {
	out := t.TempDir()
	r := runCLI(context.Background(), nil, "emu", linearExample, "--json", "--out", out, "--set", "producer[0].file-size=262144")
	if r.code != 0 {
		t.Fatalf("emu exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	var doc emuDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	if doc.Mode != "live" || len(doc.Flows) != 1 || !doc.Flows[0].Complete || doc.Flows[0].Bytes != 262144 || doc.Flows[0].Error != "" {
		t.Fatalf("document: %+v; want mode live and consumer1 complete with 262144 bytes", doc)
	}
	if len(doc.Links) != 6 {
		t.Errorf("%d link directions, want linear's 6", len(doc.Links))
	}
	for _, f := range []string{"result.json", "index.html", "rtt-consumer1.csv", "topology.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "result.json"))
	if err != nil || !strings.Contains(string(b), `"mode": "live"`) {
		t.Errorf("result.json: %v, want the live document:\n%.300s", err, b)
	}
}

// TestEmuUsageErrors: a bad --exec, a program for a missing node and a
// scenario the emulator cannot run exit 2 before anything starts.
func TestEmuUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--exec", "consumer1"}, "want NODE=COMMAND"},
		{[]string{"--exec", "nowhere=true"}, "no such node"},
		{[]string{"--set", "producer[0].signature=hmac"}, "not emulated"},
	}
	for _, tt := range tests {
		r := runCLI(context.Background(), nil, append([]string{"emu", linearExample}, tt.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr+fmt.Sprint(r.err), tt.want) {
			t.Errorf("%v: exit %d, %v; want 2 and %q", tt.args, r.code, r.err, tt.want)
		}
	}
}
