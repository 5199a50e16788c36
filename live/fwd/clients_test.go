package fwd

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PythonEnv names the Python interpreter with python-ndn installed that
// TestPythonNDN runs (.ci/run sets it to its venv's); unset, python3.
const PythonEnv = "NDNCC_PYTHON"

// pythonNDN returns an interpreter that imports python-ndn, or skips the
// test saying why not.
func pythonNDN(t *testing.T) string {
	t.Helper()
	py := os.Getenv(PythonEnv)
	if py == "" {
		py = "python3"
	}
	if out, err := exec.Command(py, "-c", "import ndn").CombinedOutput(); err != nil {
		t.Skipf("python-ndn not available: %s -c 'import ndn' failed (%v: %s); set %s to a python with python-ndn (pip install python-ndn)",
			py, err, strings.TrimSpace(string(out)), PythonEnv)
	}
	return py
}

// TestPythonNDN runs python-ndn applications through `ndncc fw`: a
// producer that registers /py/file with @app.route (python-ndn 0.5 signs
// its rib/register in the older format, the signature in the name) and a
// consumer that fetches from it.
func TestPythonNDN(t *testing.T) {
	py := pythonNDN(t)
	f := startFwConfig(t, "udp = \"\"\ntcp = \"\"\n")
	script, err := filepath.Abs("testdata/pyndn_app.py")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+t.TempDir(), "NDN_CLIENT_TRANSPORT="+f.UnixURI())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	producer := exec.CommandContext(ctx, py, script, "serve")
	producer.Env = env
	out, err := producer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	producer.Stderr = &stderr
	if err := producer.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = producer.Process.Kill(); _ = producer.Wait() })
	registered := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		registered <- line
	}()
	select {
	case line := <-registered:
		if strings.TrimSpace(line) != "registered" {
			t.Fatalf("python-ndn producer: %q, want registered\n%s", line, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("python-ndn producer did not register within 30 s\n%s", stderr.String())
	}

	consumer := exec.CommandContext(ctx, py, script, "fetch")
	consumer.Env = env
	got, err := consumer.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "hello from python-ndn") {
		t.Fatalf("python-ndn consumer: %v\n%s", err, got)
	}
	t.Logf("python-ndn: %s", strings.TrimSpace(string(got)))
}

// TestNdndFwStatus runs ndnd's `ndnd fw status` (the status/general
// dataset) and its face and route listings against `ndncc fw`.
func TestNdndFwStatus(t *testing.T) {
	f := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\n")
	out := ndndControl(t, f.UnixURI(), "status")
	for _, want := range []string{"version=ndncc", "nFibEntries=", "nInInterests="} {
		if !strings.Contains(out, want) {
			t.Errorf("ndnd fw status lacks %q:\n%s", want, out)
		}
	}
	t.Logf("ndnd fw status:\n%s", out)
}
