// Package ndndtest runs a real ndnd forwarder (`ndnd fw`) for tests of the
// live runtime: on a temporary Unix socket and on loopback UDP and TCP
// ports, with congestion marking on. It finds the ndnd binary in $NDND_BIN
// or builds it from the ndnd module that go.mod requires; a test is
// skipped, with a message saying so, only when neither works.
//
// It is a test helper: only _test.go files and scripts may import it.
package ndndtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// BinEnv names the environment variable that points at an ndnd binary.
const BinEnv = "NDND_BIN"

var (
	buildOnce sync.Once
	builtPath string
	buildErr  error
)

// Binary returns the path of an ndnd binary, building it on first use if
// $NDND_BIN is not set, and skips the test if there is none.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(BinEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", BinEnv, p, err)
		}
		return p
	}
	buildOnce.Do(func() { builtPath, buildErr = build() })
	if buildErr != nil {
		t.Skipf("no ndnd forwarder: %s is not set and building ndnd failed: %v", BinEnv, buildErr)
	}
	return builtPath
}

// build compiles ndnd from the module cache into a temporary directory
// named after the module version and the user, once per machine and user.
// A binary already there is used only if this user owns it and its
// directory and no one else may write to either (a shared $TMPDIR lets
// anyone create that directory first); otherwise ndnd is built into a
// fresh private directory.
func build() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", "github.com/named-data/ndnd").Output()
	if err != nil {
		return "", fmt.Errorf("locate the ndnd module: %w", err)
	}
	dir, version, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !ok || dir == "" {
		return "", fmt.Errorf("locate the ndnd module: go list printed %q (run `go mod download` first)", out)
	}
	binDir := filepath.Join(os.TempDir(), fmt.Sprintf("ndncc-ndnd-%s-%d", version, os.Getuid()))
	bin := filepath.Join(binDir, "ndnd")
	if err := os.Mkdir(binDir, 0o700); err != nil && !os.IsExist(err) {
		return "", err
	}
	if err := private(binDir); err != nil {
		if binDir, err = os.MkdirTemp("", "ndncc-ndnd-"); err != nil {
			return "", err
		}
		bin = filepath.Join(binDir, "ndnd")
	}
	if private(bin) == nil {
		return bin, nil
	}
	tmp := fmt.Sprintf("%s.%d", bin, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, "./cmd/ndnd")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ndnd in %s: %w: %s", dir, err, stderr.String())
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// private reports why path may not be trusted: it must exist, be owned by
// this user and be writable by no one else.
func private(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if owner, ok := ownerOf(st); !ok || owner != os.Getuid() {
		return fmt.Errorf("%s is not owned by uid %d", path, os.Getuid())
	}
	if st.Mode()&0o022 != 0 || st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is writable by others (%v) or a symbolic link", path, st.Mode())
	}
	return nil
}

// Options configure a forwarder.
type Options struct {
	// NoCongestionMarking turns ndnd's congestion marking off.
	NoCongestionMarking bool
	// CSCapacity is the content store capacity per forwarding thread
	// (0: ndnd's default, 1024 Data).
	CSCapacity int
	// UDPMTU is the MTU of UDP faces (0: ndnd's default, 1420).
	UDPMTU int
}

// Forwarder is a running `ndnd fw`.
type Forwarder struct {
	// Dir holds the configuration, the socket and the log.
	Dir string
	// Socket is the Unix socket path; UDPPort and TCPPort the loopback
	// ports it listens on.
	Socket           string
	UDPPort, TCPPort int
	bin, config      string
	cmd              *exec.Cmd
	exited           chan struct{}
	log              *os.File
}

// Start runs a forwarder until the test ends.
func Start(t testing.TB, opt Options) *Forwarder {
	t.Helper()
	bin := Binary(t)
	dir, err := os.MkdirTemp("", "ndnfw-") // short: Unix socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	f := &Forwarder{Dir: dir, Socket: filepath.Join(dir, "nfd.sock"), bin: bin, config: filepath.Join(dir, "fw.yml")}
	f.UDPPort = freePort(t, "udp")
	f.TCPPort = freePort(t, "tcp")
	if err := os.WriteFile(f.config, []byte(f.configText(opt)), 0o644); err != nil {
		t.Fatal(err)
	}
	if f.log, err = os.Create(filepath.Join(dir, "fw.log")); err != nil {
		t.Fatal(err)
	}
	f.launch(t)
	t.Cleanup(func() {
		f.Kill()
		if t.Failed() {
			b, _ := os.ReadFile(f.log.Name())
			t.Logf("ndnd fw log:\n%s", tail(b, 4000))
		}
		f.log.Close()
		os.RemoveAll(dir)
	})
	return f
}

// launch starts the forwarder process and waits until it accepts
// connections.
func (f *Forwarder) launch(t testing.TB) {
	t.Helper()
	f.exited = make(chan struct{})
	f.cmd = exec.Command(f.bin, "fw", "run", f.config)
	f.cmd.Stdout, f.cmd.Stderr = f.log, f.log
	f.cmd.SysProcAttr = sysProcAttr()
	if err := f.cmd.Start(); err != nil {
		t.Fatalf("start ndnd fw: %v", err)
	}
	go func(cmd *exec.Cmd, exited chan struct{}) { _ = cmd.Wait(); close(exited) }(f.cmd, f.exited)
	f.waitReady(t)
}

// Restart starts the forwarder again after Kill, with the same
// configuration, socket and ports: what a forwarder restarted by its
// service manager looks like to its clients (it has forgotten every face,
// route and pending Interest).
func (f *Forwarder) Restart(t testing.TB) {
	t.Helper()
	f.Kill()
	f.launch(t)
}

func (f *Forwarder) configText(opt Options) string {
	marking := !opt.NoCongestionMarking
	var b strings.Builder
	fmt.Fprintf(&b, "core:\n  log_level: WARN\n")
	fmt.Fprintf(&b, "faces:\n  congestion_marking: %t\n", marking)
	fmt.Fprintf(&b, "  udp:\n    enabled_unicast: true\n    enabled_multicast: false\n    port_unicast: %d\n", f.UDPPort)
	if opt.UDPMTU > 0 {
		fmt.Fprintf(&b, "    default_mtu: %d\n", opt.UDPMTU)
	}
	fmt.Fprintf(&b, "  tcp:\n    enabled: true\n    port_unicast: %d\n", f.TCPPort)
	fmt.Fprintf(&b, "  unix:\n    enabled: true\n    socket_path: %s\n", f.Socket)
	fmt.Fprintf(&b, "  websocket:\n    enabled: false\n  http3:\n    enabled: false\n")
	fmt.Fprintf(&b, "fw:\n  threads: 2\n")
	if opt.CSCapacity > 0 {
		fmt.Fprintf(&b, "tables:\n  content_store:\n    capacity: %d\n", opt.CSCapacity)
	}
	return b.String()
}

// waitReady waits until the Unix socket accepts connections.
func (f *Forwarder) waitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-f.exited:
			b, _ := os.ReadFile(f.log.Name())
			t.Fatalf("ndnd fw exited at start:\n%s", tail(b, 4000))
		default:
		}
		if c, err := net.Dial("unix", f.Socket); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("ndnd fw: %s not ready after 10 s", f.Socket)
}

// Unix returns the Unix socket transport URI.
func (f *Forwarder) Unix() string { return "unix://" + f.Socket }

// UDP returns the loopback UDP transport URI.
func (f *Forwarder) UDP() string { return fmt.Sprintf("udp://127.0.0.1:%d", f.UDPPort) }

// TCP returns the loopback TCP transport URI.
func (f *Forwarder) TCP() string { return fmt.Sprintf("tcp://127.0.0.1:%d", f.TCPPort) }

// Kill stops the forwarder abruptly (SIGKILL) and waits for it to exit. It
// does nothing to a forwarder that has already exited.
func (f *Forwarder) Kill() {
	if f.cmd.Process != nil {
		_ = f.cmd.Process.Kill()
	}
	<-f.exited
}

// Env returns the environment for an ndnd tool connecting to this
// forwarder's Unix socket.
func (f *Forwarder) Env() []string {
	return append(os.Environ(), "NDN_CLIENT_TRANSPORT="+f.Unix())
}

// freePort picks a loopback port that is free now.
func freePort(t testing.TB, network string) int {
	t.Helper()
	switch network {
	case "udp":
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	default:
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
