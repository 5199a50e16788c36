package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/ndn"
)

// resign replaces a Data frame by one with a fresh DigestSha256, as a man
// in the middle can: a segment's content is tampered with, any other
// Data's (the version discovery's metadata) kept. Other frames pass.
func resign(frame []byte) []byte {
	pkt, err := ndn.DecodeFrame(frame)
	if err != nil || pkt.Data == nil {
		return frame
	}
	if _, ok := ndn.SegmentOf(pkt.Data.Name); ok && !strings.Contains(pkt.Data.Name.String(), "/32=metadata/") {
		return redigest(frame)
	}
	d := &ndn.Data{Name: pkt.Data.Name, ContentType: pkt.Data.ContentType, Content: pkt.Data.Content,
		Freshness: pkt.Data.Freshness, FinalBlockID: pkt.Data.FinalBlockID, HasFinal: pkt.Data.HasFinal}
	if _, err := ndn.EncodeData(d, nil); err != nil {
		panic(err)
	}
	out, err := ndn.EncodeFrame(&ndn.Packet{Data: d})
	if err != nil {
		panic(err)
	}
	return out
}

// certFile writes the certificate of a fresh Ed25519 key named name to a
// file and returns its path.
func certFile(t *testing.T, dir, name string) string {
	t.Helper()
	s, err := live.LoadSigning(live.SignEd25519, "", mustParse(t, name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "anchor.cert")
	if err := os.WriteFile(path, s.Cert.Wire, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFaultDigestResignNotAuthenticated serves an Ed25519-signed object
// through a proxy that re-signs every Data with a DigestSha256 (segments
// tampered with). Without a trust anchor the fetch succeeds — a digest
// is all plain `ndncc serve` and `ndnd put` give — but the summary and
// --json say the object is not authenticated; with --trust CERT it fails
// with exit 5 and leaves no file.
func TestFaultDigestResignNotAuthenticated(t *testing.T) {
	t.Parallel()
	fw := startForwarder(t)
	file, _ := servedFile(t, 60_000, 24)
	startServe(t, "/fault/resigned", file, "--transport", fw.Unix(), "--sign", "ed25519", "--size", "4000")
	proxy := startFaultProxy(t, fw.Unix(), func(toClient bool, frame []byte) ([]byte, time.Duration) {
		if toClient {
			return resign(frame), 0
		}
		return frame, 0
	})
	anchor := certFile(t, t.TempDir(), "/fault/resigned")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stderr   string // in the summary
		jsonAuth bool   // check --json's authentication
	}{
		{"default", nil, 0, "Authentication: digests only: not authenticated\n", false},
		{"json", []string{"--json"}, 0, "", true},
		{"trust digest", []string{"--trust", "digest"}, 0, "Authentication: digests only: not authenticated\n", false},
		{"trust anchor", []string{"--trust", anchor}, exitIntegrity, "", false},
		{"cert anchor", []string{"--cert", anchor}, exitIntegrity, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.bin")
			args := append([]string{"/fault/resigned", "--transport", proxy.URI(), "-o", out}, tc.args...)
			r, _ := awaitFetch(t, fetchTo(args...), time.Minute)
			if r.code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", r.code, r.err, tc.code, r.stderr)
			}
			if tc.code != 0 {
				if !strings.Contains(r.err.Error(), "carries only a digest") {
					t.Errorf("the error does not say why: %v", r.err)
				}
				checkOutput(t, dir, nil)
				return
			}
			if got, _ := os.ReadFile(out); !bytes.HasPrefix(got, []byte("tampered ")) {
				t.Errorf("the output is not the tampered object the test expects")
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("summary lacks %q:\n%s", tc.stderr, r.stderr)
			}
			if tc.jsonAuth {
				var doc struct {
					Bytes          uint64
					Pipeline       string
					Authentication live.Authentication
				}
				if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
					t.Fatalf("--json: %v\n%s", err, r.stdout)
				}
				if doc.Pipeline != defaultPipeline {
					t.Errorf("--json names pipeline %q, want %s", doc.Pipeline, defaultPipeline)
				}
				a := doc.Authentication
				if a.Authenticated || a.Trust != "digest" || a.Signature != "DigestSha256" || a.Summary != "digests only: not authenticated" {
					t.Errorf("authentication %+v", a)
				}
			}
		})
	}
}

// TestFetchTrustAny serves an Ed25519-signed object whose certificate
// never reaches the consumer (the proxy drops it, as when a producer's
// certificate is not served): the default fetch fails its integrity check
// (exit 5), --trust any fetches it and says it is not authenticated.
func TestFetchTrustAny(t *testing.T) {
	t.Parallel()
	fw := startForwarder(t)
	file, content := servedFile(t, 40_000, 25)
	startServe(t, "/fault/uncertified", file, "--transport", fw.Unix(), "--sign", "ed25519", "--size", "4000")
	proxy := startFaultProxy(t, fw.Unix(), func(toClient bool, frame []byte) ([]byte, time.Duration) {
		if pkt, err := ndn.DecodeFrame(frame); toClient && err == nil && pkt.Data != nil && strings.Contains(pkt.Data.Name.String(), "/KEY/") {
			return nil, 0
		}
		return frame, 0
	})
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		summary string
	}{
		{"default", []string{"--timeout", "1500"}, exitIntegrity, ""},
		{"trust any", []string{"--trust", "any"}, 0, "Authentication: not verified (--trust any): Ed25519 by /fault/uncertified/KEY/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"/fault/uncertified", "--transport", proxy.URI(), "-o", filepath.Join(dir, "out.bin")}, tc.args...)
			r, _ := awaitFetch(t, fetchTo(args...), time.Minute)
			if r.code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", r.code, r.err, tc.code, r.stderr)
			}
			if tc.code != 0 {
				if !strings.Contains(r.err.Error(), "fetch certificate") {
					t.Errorf("the error does not name the certificate: %v", r.err)
				}
				checkOutput(t, dir, nil)
				return
			}
			checkOutput(t, dir, content)
			if !strings.Contains(r.stderr, tc.summary) || !strings.Contains(r.stderr, "not authenticated\n") {
				t.Errorf("summary lacks %q ... not authenticated:\n%s", tc.summary, r.stderr)
			}
		})
	}
}

// TestFetchToDevNull fetches to /dev/null, the usual way to time a
// transfer: it is written as it is, no temporary file beside it.
func TestFetchToDevNull(t *testing.T) {
	t.Parallel()
	fw := startForwarder(t)
	file, _ := servedFile(t, 50_000, 26)
	startServe(t, "/cli/devnull", file, "--transport", fw.Unix())
	r, _ := awaitFetch(t, fetchTo("/cli/devnull", "--transport", fw.Unix(), "-o", os.DevNull), time.Minute)
	if r.code != 0 {
		t.Fatalf("exit %d (%v)\n%s", r.code, r.err, r.stderr)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v", os.DevNull, err)
	}
	if !strings.Contains(r.stderr, "Transferred size: 50 kB") {
		t.Errorf("summary:\n%s", r.stderr)
	}
}

// TestFetchLogFlagNamed checks that a trace file that cannot be created
// is reported by its flag, before any connection is tried.
func TestFetchLogFlagNamed(t *testing.T) {
	for _, flag := range []string{"--log-cwnd", "--log-rtt"} {
		t.Run(flag, func(t *testing.T) {
			r := runCLI(context.Background(), nil, "fetch", "/a", flag, "/proc/nope/trace", "--transport", "unix:///nonexistent/ndncc.sock")
			if r.code != exitFailure || r.err == nil || !strings.HasPrefix(r.err.Error(), flag+": ") {
				t.Errorf("exit %d: %v, want %d naming %s", r.code, r.err, exitFailure, flag)
			}
		})
	}
}
