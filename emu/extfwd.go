package emu

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	mgmt "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
)

// NDNDBinEnv names the environment variable that points at an ndnd
// binary (the one the live tests use too).
const NDNDBinEnv = "NDND_BIN"

// extReadyTimeout bounds how long an external forwarder may take to open
// its Unix socket.
const extReadyTimeout = 20 * time.Second

// extStopGrace is how long an external forwarder has to exit after
// SIGTERM before it gets SIGKILL.
const extStopGrace = 2 * time.Second

// extStrategies maps the scenario's strategies to the external
// forwarders' own (NFD's and ndnd's names are the same); a strategy not
// here (pcon, pi, cf: ndncc's) is refused.
var extStrategies = map[string]string{
	fw.StrategyBestRoute: "/localhost/nfd/strategy/best-route",
	fw.StrategyMulticast: "/localhost/nfd/strategy/multicast",
}

// forwarderOf is the forwarder node runs: its own [routers.node.NAME]
// forwarder, else opt.Forwarder, else [routers] forwarder, else ndncc's.
func forwarderOf(sc *scenario.Scenario, opt Options, node string) string {
	if o, ok := sc.NodeRouters[node]; ok && o.Set&scenario.SetForwarder != 0 && o.Forwarder != "" {
		return o.Forwarder
	}
	return cmp.Or(opt.Forwarder, sc.Routers.Forwarder, scenario.ForwarderNDNCC)
}

// external reports whether kind is a forwarder run as a process of its own.
func external(kind string) bool {
	return kind == scenario.ForwarderNFD || kind == scenario.ForwarderNDND
}

// forwarderBinary finds the program of an external forwarder: the path
// Options gives, else (ndnd) $NDND_BIN, else the name on $PATH.
func forwarderBinary(kind string, opt Options) (string, error) {
	var bin string
	switch kind {
	case scenario.ForwarderNFD:
		bin = cmp.Or(opt.NFD, "nfd")
	case scenario.ForwarderNDND:
		bin = cmp.Or(opt.NDND, os.Getenv(NDNDBinEnv), "ndnd")
	default:
		return "", fmt.Errorf("forwarder %q is not an external one", kind)
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		hint := "--nfd PATH, or put nfd on $PATH (scripts/build-reference.sh builds NFD 24.07)"
		if kind == scenario.ForwarderNDND {
			hint = "--ndnd PATH or $" + NDNDBinEnv + ", or put ndnd on $PATH (docs/emulation.md builds it from go.mod's ndnd)"
		}
		return "", fmt.Errorf("no %s program: %w (give %s)", kind, err, hint)
	}
	return path, nil
}

// checkExternal reports what of sc an external forwarder on node (kind)
// cannot honour: a strategy it lacks, a queue discipline other than
// drop-tail on the node's links (the link beyond its UDP face is
// ndncc's model of a tc queue, which drops and marks nothing else; a
// forwarder's own marking is its business), PCON's link-loss detection
// and TCP tunnels on them.
func checkExternal(sc *scenario.Scenario, node, kind string) []error {
	var errs []error
	rs := sc.RouterFor(node)
	if _, ok := extStrategies[rs.Strategy]; !ok {
		errs = append(errs, fmt.Errorf("%s: emu: node %s runs %s, which has no strategy %q (it runs %s)",
			rs.Pos, node, kind, rs.Strategy, strings.Join(slices.Sorted(maps.Keys(extStrategies)), ", ")))
	}
	return errs
}

// checkRelayed reports what a link direction from→to that a relay carries
// (one end of the link is an external forwarder) cannot emulate; a TCP
// tunnel, which no relay carries, Check refuses once per link.
func checkRelayed(sc *scenario.Scenario, from, to string) []error {
	var errs []error
	if q, _ := sc.QueueFor(from, to); q != "droptail" {
		hint := ""
		if q == kernelQueue {
			hint = " (a threshold-mark link runs in the kernel, marked by the sender's own socket backlog, only when both its ends are external forwarders and both its directions threshold-mark)"
		}
		errs = append(errs, fmt.Errorf("%s: emu: link %s->%s: queue %q: a link to or from an external forwarder (nfd, ndnd) is emulated between its UDP faces with a drop-tail queue only, as tc's would be; the forwarder's own queueing and marking are its own%s", sc.File, from, to, q, hint))
	}
	if err := refuseLossDetection(sc, from, to, "a link to or from an external forwarder"); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// refuseLossDetection is the error for link-loss detection on direction
// from→to of a link an external forwarder runs (what: which kind of link),
// nil where the direction has none.
func refuseLossDetection(sc *scenario.Scenario, from, to, what string) error {
	if !sc.LossDetection(from, to) {
		return nil
	}
	return fmt.Errorf("%s: emu: link %s->%s: loss-detection (ndncc's NDNLPv2 link-loss detection) runs in ndncc's forwarder only, not on %s", sc.File, from, to, what)
}

// extNode is an external forwarder (NFD's nfd, ndnd's `ndnd fw`) running
// a node as a process of its own, with a configuration, a Unix socket and
// a UDP port on 127.0.0.1 of its own.
type extNode struct {
	kind, bin string
	dir       string // its configuration, key chain (NFD's $HOME) and log
	port      int    // its UDP listener on 127.0.0.1
	cmd       *exec.Cmd
	exited    chan struct{}
	log       *os.File
	// faces are its faces to the neighbours (towards their relays), by
	// name; routes are the simulator's, installed through management.
	faces  map[string]uint64
	routes []fwconf.Route
}

// addr is the forwarder's UDP listener.
func (x *extNode) addr() *net.UDPAddr {
	return &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: x.port}
}

// startExt writes nd's configuration into the run's directory and starts
// its forwarder; it does not wait for it (waitReady).
func (r *run) startExt(nd *node, kind string) error {
	bin, err := forwarderBinary(kind, r.opt)
	if err != nil {
		return err
	}
	x := &extNode{kind: kind, bin: bin, faces: map[string]uint64{}, exited: make(chan struct{})}
	nd.ext = x
	x.dir = filepath.Join(r.dir, filepath.Base(strings.TrimSuffix(nd.sock, ".sock"))+"."+kind)
	if err := os.Mkdir(x.dir, 0o700); err != nil {
		return err
	}
	if x.port, err = freeUDPPort(); err != nil {
		return err
	}
	// With kernel links (kernel.go) the forwarder runs in the run's
	// network namespace: started from the namespace's thread, it is born
	// there. Its Unix socket, a path, is reached from outside as well.
	start := x.startCmd
	if r.ns != nil {
		start = func() error { return r.ns.do(x.startCmd) }
	}
	rs := r.sc.RouterFor(nd.name)
	var conf, text string
	var args []string
	switch kind {
	case scenario.ForwarderNFD:
		conf, text = filepath.Join(x.dir, "nfd.conf"), nfdConfig(nd.sock, x.port, rs)
		args = []string{"--config", conf}
	case scenario.ForwarderNDND:
		conf, text = filepath.Join(x.dir, "fw.yml"), ndndConfig(nd.sock, x.port, rs)
		args = []string{"fw", "run", conf}
	}
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		return err
	}
	if x.log, err = os.Create(filepath.Join(x.dir, "log")); err != nil {
		return err
	}
	x.cmd = exec.Command(bin, args...)
	x.cmd.Dir = x.dir
	x.cmd.Env = append(os.Environ(), "HOME="+x.dir) // NFD's key chain goes there, not into the user's
	if kind == scenario.ForwarderNFD {
		// A prefix such as scripts/build-reference.sh's: PREFIX/bin/nfd
		// finds libndn-cxx in PREFIX/lib or PREFIX/lib64.
		var libs []string
		for _, l := range []string{"lib", "lib64"} {
			if lib := filepath.Join(filepath.Dir(filepath.Dir(bin)), l); dirExists(lib) {
				libs = append(libs, lib)
			}
		}
		if len(libs) > 0 {
			x.cmd.Env = append(x.cmd.Env, "LD_LIBRARY_PATH="+strings.Trim(strings.Join(libs, ":")+":"+os.Getenv("LD_LIBRARY_PATH"), ":"))
		}
	}
	x.cmd.Stdout, x.cmd.Stderr = x.log, x.log
	x.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := start(); err != nil {
		close(x.exited)
		return fmt.Errorf("start %s: %w", bin, err)
	}
	r.log.Info("external forwarder started", "node", nd.name, "forwarder", kind, "pid", x.cmd.Process.Pid, "udp", x.port, "socket", nd.sock)
	go func() { x.cmd.Wait(); close(x.exited) }()
	return nil
}

// startCmd starts the forwarder's process.
func (x *extNode) startCmd() error { return x.cmd.Start() }

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// waitReady waits until nd's external forwarder accepts connections on its
// Unix socket.
func (x *extNode) waitReady(ctx context.Context, sock string) error {
	deadline := time.Now().Add(extReadyTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-x.exited:
			return fmt.Errorf("%s exited at start (%s): %s", x.kind, x.cmd.ProcessState, x.logTail())
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("%s: %s not ready after %v: %s", x.kind, sock, extReadyTimeout, x.logTail())
}

// logTail is the end of the forwarder's log, for an error.
func (x *extNode) logTail() string {
	b, _ := os.ReadFile(x.log.Name())
	b = bytes.TrimSpace(b)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	if len(b) == 0 {
		return "(its log is empty)"
	}
	return "its log ends:\n" + string(b)
}

// stop ends the forwarder this run started (SIGTERM to its process,
// SIGKILL after extStopGrace) and waits for it.
func (x *extNode) stop() {
	if x.log != nil {
		defer x.log.Close()
	}
	if x.cmd == nil || x.cmd.Process == nil {
		return
	}
	select {
	case <-x.exited:
	default:
		x.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-x.exited:
		case <-time.After(extStopGrace):
			x.cmd.Process.Kill()
			<-x.exited
		}
	}
}

// extFace is an external forwarder's face to a neighbour: the URI it
// creates it with (the link's relay socket, or the proxy of its TCP
// tunnel), and, on a kernel link or a tunnel, how it marks (nil: the
// forwarder's defaults; noMarking: congestion marking off).
type extFace struct {
	uri       string
	marking   *kernelMarking
	noMarking bool
}

// configure creates nd's faces to its relays (faces/create, permanent
// UDP faces; on a kernel link with congestion marking on, at the
// scenario's threshold and base interval), installs its routes
// (rib/register, origin static, with the route planner's costs) and sets
// its strategy (strategy-choice/set), through the forwarder's own
// management over its Unix socket.
func (r *run) configure(ctx context.Context, nd *node, faces map[string]extFace) error {
	return r.manage(ctx, nd, func(m *mgmtConn) error { return r.configureWith(m, faces) })
}

// configureWith is configure over an open management connection.
func (r *run) configureWith(m *mgmtConn, faces map[string]extFace) error {
	nd, x := m.nd, m.nd.ext
	command := m.command
	for _, to := range slices.Sorted(maps.Keys(faces)) {
		f := faces[to]
		uri := f.uri
		args := &mgmt.ControlArgs{
			Uri:             optional.Some(uri),
			FacePersistency: optional.Some(uint64(mgmt.PersistencyPermanent)),
		}
		switch mk := f.marking; {
		case mk != nil:
			args.Flags = optional.Some(mgmt.FaceFlagCongestionMarkingEnabled)
			args.Mask = optional.Some(mgmt.FaceFlagCongestionMarkingEnabled)
			args.BaseCongestionMarkInterval = optional.Some(uint64(mk.interval.Nanoseconds()))
			args.DefaultCongestionThreshold = optional.Some(mk.threshold)
		case f.noMarking:
			args.Flags = optional.Some(uint64(0))
			args.Mask = optional.Some(mgmt.FaceFlagCongestionMarkingEnabled)
		}
		p, err := command("faces", "create", args)
		if err != nil {
			return fmt.Errorf("face to %s (%s): %w", to, uri, err)
		}
		id, ok := uint64(0), false
		if p != nil {
			id, ok = p.FaceId.Get()
		}
		if !ok {
			return fmt.Errorf("face to %s (%s): faces/create answered without a FaceId", to, uri)
		}
		x.faces[to] = id
	}
	for _, rt := range x.routes {
		name, err := ndn.ParseName(rt.Prefix)
		if err != nil {
			return err
		}
		id, ok := x.faces[rt.Face]
		if !ok {
			return fmt.Errorf("route %s via %s: no face to %s", rt.Prefix, rt.Face, rt.Face)
		}
		if _, err := command("rib", "register", &mgmt.ControlArgs{
			Name:   name,
			FaceId: optional.Some(id),
			Origin: optional.Some(uint64(mgmt.RouteOriginStatic)),
			Cost:   optional.Some(uint64(rt.Cost)),
		}); err != nil {
			return fmt.Errorf("route %s via %s: %w", rt.Prefix, rt.Face, err)
		}
	}
	strategy := extStrategies[r.sc.RouterFor(nd.name).Strategy]
	if x.kind == scenario.ForwarderNDND && strategy != extStrategies[fw.StrategyBestRoute] {
		// NFD takes it from its configuration (nfdConfig); ndnd's has no key.
		sname, err := ndn.ParseName(strategy)
		if err != nil {
			return err
		}
		root, _ := ndn.ParseName("/")
		if _, err := command("strategy-choice", "set", &mgmt.ControlArgs{Name: root, Strategy: &mgmt.Strategy{Name: sname}}); err != nil {
			return fmt.Errorf("strategy %s: %w", strategy, err)
		}
	}
	return nil
}

// freeUDPPort picks a UDP port on 127.0.0.1 that is free now.
func freeUDPPort() (int, error) {
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port, nil
}

// nfdConfig is an nfd.conf for a node: its Unix socket, a UDP listener
// (IPv4, the given port, 8800-byte MTU, no multicast), a TCP channel that
// does not listen (it dials the TCP tunnels' proxies) and whose faces are
// all non-local, as a tunnel's to another host would be (its default
// counts loopback's as local), no Ethernet or WebSocket, the scenario's Content Store capacity and strategy, NFD's
// default congestion marking, and management open to any local command
// (`certfile any`, a RIB trust anchor of type any): the emulator's run is
// its own, on loopback.
func nfdConfig(sock string, port int, rs scenario.RouterSettings) string {
	return fmt.Sprintf(`general
{
}
log
{
  default_level WARN
}
tables
{
  cs_max_packets %d
  cs_policy lru
  cs_unsolicited_policy drop-all
  strategy_choice
  {
    /               %s
    /localhost      /localhost/nfd/strategy/multicast
    /localhost/nfd  /localhost/nfd/strategy/best-route
  }
}
face_system
{
  general
  {
    enable_congestion_marking yes
  }
  unix
  {
    path %s
  }
  udp
  {
    listen yes
    port %d
    enable_v4 yes
    enable_v6 no
    idle_timeout 600
    unicast_mtu 8800
    mcast no
  }
  tcp
  {
    listen no
    enable_v4 yes
    enable_v6 no
    local
    {
      whitelist
      {
      }
    }
  }
}
authorizations
{
  authorize
  {
    certfile any
    privileges
    {
      faces
      fib
      cs
      strategy-choice
    }
  }
}
rib
{
  localhost_security
  {
    trust-anchor
    {
      type any
    }
  }
}
`, rs.CSCapacity, extStrategies[rs.Strategy], sock, port)
}

// ndndConfig is an `ndnd fw` configuration for a node: its Unix socket, a
// UDP listener on the given port with an 8800-byte MTU, no multicast,
// TCP, WebSocket or HTTP/3, congestion marking on (ndnd's default), one
// forwarding thread (its Content Store capacity is per thread: one makes
// it the scenario's), and the scenario's capacity (0: nothing admitted or
// served).
func ndndConfig(sock string, port int, rs scenario.RouterSettings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "core:\n  log_level: WARN\n")
	fmt.Fprintf(&b, "faces:\n  congestion_marking: true\n")
	fmt.Fprintf(&b, "  udp:\n    enabled_unicast: true\n    enabled_multicast: false\n    port_unicast: %d\n    default_mtu: 8800\n", port)
	fmt.Fprintf(&b, "  tcp:\n    enabled: false\n")
	fmt.Fprintf(&b, "  unix:\n    enabled: true\n    socket_path: %s\n", sock)
	fmt.Fprintf(&b, "  websocket:\n    enabled: false\n  http3:\n    enabled: false\n")
	fmt.Fprintf(&b, "fw:\n  threads: 1\n")
	cs := rs.CSCapacity
	fmt.Fprintf(&b, "tables:\n  content_store:\n    capacity: %d\n    admit: %t\n    serve: %t\n", max(cs, 1), cs > 0, cs > 0)
	fmt.Fprintf(&b, "  rib:\n    readvertise_nlsr: false\n")
	return b.String()
}

// errExtExited is the failure of an external forwarder that exited while
// the network was up.
var errExtExited = errors.New("exited")
