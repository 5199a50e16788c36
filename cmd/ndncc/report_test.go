package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestExperimentReportInChromium is issue 6's check: `experiment
// seed000-linear --runs 5 --out DIR` writes DIR/index.html with the table
// and the cwnd, RTT/RTO, rate and queue plots, and headless Chromium
// renders every table and image of it.
func TestExperimentReportInChromium(t *testing.T) {
	dir := t.TempDir()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"experiment", "seed000-linear", "--runs", "5", "--out", dir})
	if err := root.Execute(); err != nil {
		t.Fatalf("experiment: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"design3", "24.5–25", "design3/cwnd.svg", "design3/rtt-c1.svg", "design3/rate.svg", "design3/queue-router2-router1.svg"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no chromium in PATH; .ci/run installs Debian's chromium")
		}
		t.Skip("no chromium in PATH (apt-get install chromium)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+filepath.Join(dir, "index.html"))
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	body := regexp.MustCompile(`<body[^>]*>`).FindString(string(dom))
	m := regexp.MustCompile(`data-images-ok="(\d+)/(\d+)"`).FindStringSubmatch(body)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("chromium rendered %s: want every image loaded", body)
	}
	if !strings.Contains(body, `data-table-rows="4"`) {
		t.Errorf("chromium rendered %s: want 4 table rows (designs 0-3)", body)
	}
}
