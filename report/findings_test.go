package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndncc/ndncc/experiment"
)

func TestFindingsSweepChart(t *testing.T) {
	var points []experiment.FindingsPoint
	for _, r := range []float64{10, 100} {
		for _, b := range []float64{0.1, 1} {
			points = append(points, experiment.FindingsPoint{RateMbps: r, BufferBDP: b, Findings: []experiment.FindingResult{
				{Claim: "a", Holds: r > 50}, {Claim: "b", Holds: b > 0.5},
			}})
		}
	}
	base := filepath.Join(t.TempDir(), "findings")
	files, err := FindingsSweepChart(base, points, []string{"A", "B"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0] != base+".png" || files[1] != base+".svg" {
		t.Fatalf("files %v, want findings.png and findings.svg", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("findings.png: %v", err)
	}
	svg, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"F1 A", "F2 B", "findings that hold (of 2)"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("findings.svg lacks %q", want)
		}
	}
	if _, err := FindingsSweepChart(base, points, []string{"only one"}, 0); err == nil {
		t.Error("titles that do not match the findings: no error")
	}
	if _, err := FindingsSweepChart(base, nil, []string{"A"}, 0); err == nil {
		t.Error("no points: no error")
	}
}
