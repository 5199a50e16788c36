// Package browsertest runs headless Chromium for the tests that check what
// a person would see in ndncc's HTML reports. It is used by tests only.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Chromium returns the path of a Chromium binary. Without one the test is
// skipped, except in CI (CI=true), where .ci/run installs Debian's
// chromium package and a missing browser is a failure.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium binary in PATH; CI must install Debian's chromium package")
	}
	t.Skip("no chromium binary in PATH (apt-get install chromium); skipping the headless-browser check")
	return ""
}

// Run runs headless Chromium with a throw-away profile and no network
// services, and returns its standard output.
func Run(t testing.TB, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		t.Fatalf("%s %s: %v\n%s", browser, strings.Join(args, " "), err, strings.Join(lines[max(0, len(lines)-20):], "\n"))
	}
	return string(out)
}

// Body returns the <body ...> tag of the DOM Chromium dumped for url, which
// carries what a page's load-time script recorded in data- attributes.
func Body(t testing.TB, browser, url string) string {
	t.Helper()
	return bodyTag.FindString(Run(t, browser, "--dump-dom", url))
}
