package report

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "rtt-c1.csv",
		"time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms\r\n0.5,3,70.25,71,2,200\r\n1,4,0,71,2,212.5\r\n")
	got, err := readCSV(path, "segment", "rto_ms", "time_s")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{3, 4}, {200, 212.5}, {0.5, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readCSV = %v, want %v", got, want)
	}
	empty := writeFile(t, dir, "rate-c1.csv", "time_s,goodput_kbps\n")
	got, err = readCSV(empty, "time_s", "goodput_kbps")
	if err != nil || len(got) != 2 || len(got[0]) != 0 || len(got[1]) != 0 {
		t.Errorf("header-only file: got %v, %v; want two empty columns", got, err)
	}
}

func TestReadCSVErrors(t *testing.T) {
	want := []string{"time_s", "cwnd", "ssthresh"}
	tests := []struct {
		name, content, err string
	}{
		{"empty file", "", `F:1: empty file, want header "time_s,cwnd,ssthresh"`},
		{"missing column", "time_s,cwnd\n0,1\n", `F:1: header "time_s,cwnd" has no column "ssthresh"`},
		{"too few fields", "time_s,cwnd,ssthresh\n0,1,2\n0.1,2\n", `F:3: 2 fields, want 3 (time_s,cwnd,ssthresh)`},
		{"too many fields", "time_s,cwnd,ssthresh\n0,1,2,3\n", `F:2: 4 fields, want 3 (time_s,cwnd,ssthresh)`},
		{"not a number", "time_s,cwnd,ssthresh\n0,1,2\n0.1,abc,2\n", `F:3: column cwnd: "abc" is not a finite number`},
		{"empty field", "time_s,cwnd,ssthresh\n0,,2\n", `F:2: column cwnd: "" is not a finite number`},
		{"NaN", "time_s,cwnd,ssthresh\n0,1,NaN\n", `F:2: column ssthresh: "NaN" is not a finite number`},
		{"infinity", "time_s,cwnd,ssthresh\n+Inf,1,2\n", `F:2: column time_s: "+Inf" is not a finite number`},
		{"empty line", "time_s,cwnd,ssthresh\n0,1,2\n\n0.2,1,2\n", `F:3: empty line`},
		{"binary garbage", "time_s,cwnd,ssthresh\n\x00\xff,1,2\n", "F:2: column time_s: \"\\x00\\xff\" is not a finite number"},
		{"line too long", "time_s,cwnd,ssthresh\n0,1,2\n" + strings.Repeat("9", maxLineBytes+1) + "\n",
			fmt.Sprintf("F:3: line longer than %d bytes", maxLineBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "cwnd-c1.csv", tt.content)
			_, err := readCSV(path, want...)
			if err == nil {
				t.Fatalf("readCSV succeeded, want error %q", tt.err)
			}
			if got := strings.ReplaceAll(err.Error(), path, "F"); got != tt.err {
				t.Errorf("error = %q\nwant    %q", got, tt.err)
			}
		})
	}
	_, err := readCSV(filepath.Join(t.TempDir(), "missing.csv"), want...)
	if err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("missing file: error %v, want one naming the file", err)
	}
}

// TestPlotRunBadTrace checks that a malformed trace stops PlotRun with the
// file and line, and writes nothing.
func TestPlotRunBadTrace(t *testing.T) {
	dir := t.TempDir()
	writeRunTraces(t, dir)
	path := writeFile(t, dir, "rate-c2.csv", "time_s,goodput_kbps\n0.0,100\n0.1,1e\n")
	files, err := PlotRun(dir, PlotOptions{})
	if err == nil || err.Error() != path+`:3: column goodput_kbps: "1e" is not a finite number` {
		t.Errorf("PlotRun error = %v", err)
	}
	if len(files) != 0 {
		t.Errorf("PlotRun wrote %v despite the error", files)
	}
}
