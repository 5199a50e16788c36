package emu

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// A kernel link (docs/emulation.md, "Kernel links") is a link between
// two external forwarders (nfd, ndnd) whose queue discipline is
// threshold-mark: marking by the sender's send-queue backlog, which only
// the forwarder's own socket has. Its queue is therefore the kernel's:
// the forwarders run in the run's network namespace, and each sends to
// its neighbour through a socket of the link's relay that has an
// address of its own (127.1.x.y), so that the namespace's loopback
// classifies every IP fragment of the direction (by destination address:
// a UDP datagram over the 1500-byte loopback is fragmented, and only its
// first fragment carries the ports) into an HTB class at the link's rate
// with a FIFO of the link's byte limit. The forwarder's socket fills
// behind that FIFO (its TIOCOUTQ, which NFD and ndnd read), and the
// forwarder marks by its own rule, with the threshold and base interval
// the scenario gives (faces/create). The relay then carries each
// direction's packets through a delay line (the link's delay, jitter and
// random loss, no rate: the kernel has no netem); it forwards the
// forwarder's marks untouched and counts them.

// kernelMTU is the loopback MTU of a namespace with kernel links: an
// Ethernet link's, so that a datagram is fragmented and the kernel
// charges the socket for it as on a real link (seed002-marking's
// description measures that charge on this MTU).
const kernelMTU = 1500

// minWirePacket is the fewest bytes a packet takes in a kernel link's
// FIFO (an IP fragment's Ethernet and IPv4 headers and 8 bytes of
// payload, rounded up): a FIFO of B bytes holds at most B/minWirePacket
// packets, so a packet limit at least that large can never bind first.
const minWirePacket = 64

// isKernelLink reports whether link l runs in the kernel: both ends are
// external forwarders (kinds by node) and both directions' queue is
// threshold-mark, and it is no TCP tunnel.
func isKernelLink(sc *scenario.Scenario, kinds func(string) string, l topology.Link) bool {
	if !external(kinds(l.A)) || !external(kinds(l.B)) || sc.TCPTunnelFor(l.A, l.B) != nil {
		return false
	}
	qa, _ := sc.QueueFor(l.A, l.B)
	qb, _ := sc.QueueFor(l.B, l.A)
	return qa == kernelQueue && qb == kernelQueue
}

// kernelQueue is the queue discipline that makes a link between external
// forwarders a kernel link.
const kernelQueue = "threshold-mark"

// kernelMarking is how the sender of direction from→to of a kernel link
// marks: its face's congestion threshold (bytes of its socket's send
// queue, as the kernel counts them) and base marking interval.
type kernelMarking struct {
	threshold uint64
	interval  time.Duration
}

// linkKind names what a threshold-mark link between external forwarders
// is: a TCP tunnel or a kernel link.
func linkKind(sc *scenario.Scenario, a, b string) string {
	if sc.TCPTunnelFor(a, b) != nil {
		return "a TCP tunnel"
	}
	return "a kernel link"
}

// kernelMarkingFor reads the threshold-mark parameters of direction
// from→to (of a kernel link or a TCP tunnel between external forwarders),
// refusing those the external forwarder (kind) cannot honour:
// every-packet marking (neither NFD 24.07 nor ndnd has it), any marking
// rule on ndnd (its own is neither spaced nor every: it marks by it when
// the scenario names none), a backlog in packets and a socket threshold
// (both measure their socket's bytes only).
func kernelMarkingFor(sc *scenario.Scenario, from, to, kind string) (kernelMarking, error) {
	_, params := sc.QueueFor(from, to)
	m := kernelMarking{threshold: aqm.DefaultThresholdBytes, interval: aqm.DefaultMarkInterval}
	where := fmt.Sprintf("%s: emu: link %s->%s (%s between external forwarders)", sc.File, from, to, linkKind(sc, from, to))
	var errs []error
	for _, k := range []string{"threshold-packets", "socket-threshold-bytes"} {
		if v, ok := params[k]; ok && v != "0" {
			errs = append(errs, fmt.Errorf("%s: queue-params %s = %s: %s measures its socket's send queue in bytes only; give threshold-bytes", where, k, v, kind))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return m, err
	}
	if v, ok := params["marking"]; ok {
		mk, err := aqm.ParseMarking(v)
		if err != nil {
			return m, fmt.Errorf("%s: %w", where, err)
		}
		switch {
		case kind == scenario.ForwarderNDND:
			return m, fmt.Errorf("%s: queue-params marking = %q: ndnd marks by its own rule (at most one mark per interval while its socket holds more than the threshold), neither NFD's spacing nor every packet: leave marking unset on ndnd's links, or run the link on ndncc's forwarder or NFD", where, v)
		case mk != aqm.MarkSpaced:
			return m, fmt.Errorf("%s: queue-params marking = %q: %s has no every-packet marking (NFD 24.07 spaces its marks, interval/sqrt(k)): set marking = \"spaced\", or run the link on ndncc's forwarder", where, v, kind)
		}
	}
	if v, ok := params["threshold-bytes"]; ok {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return m, fmt.Errorf("%s: queue-params threshold-bytes = %q: want a positive number of bytes", where, v)
		}
		m.threshold = n
	}
	if v, ok := params["interval"]; ok {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return m, fmt.Errorf("%s: queue-params interval = %q: want a positive duration", where, v)
		}
		m.interval = d
	}
	return m, nil
}

// checkKernel reports what of kernel link l its forwarders cannot run:
// marking parameters they lack (kernelMarkingFor), NDNLPv2 link-loss
// detection (ndncc's), and a queue limit the kernel's byte FIFO cannot
// hold as the simulator does (a FIFO of IP fragments counts bytes, not
// NDN packets: the link needs a byte limit, and a packet limit that could
// bind before it is refused).
func checkKernel(sc *scenario.Scenario, kinds func(string) string, l topology.Link) []error {
	var errs []error
	for _, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
		if _, err := kernelMarkingFor(sc, dir[0], dir[1], kinds(dir[0])); err != nil {
			errs = append(errs, err)
		}
		if err := refuseLossDetection(sc, dir[0], dir[1], "a link between external forwarders"); err != nil {
			errs = append(errs, err)
		}
	}
	switch {
	case l.QueueBytes <= 0:
		errs = append(errs, fmt.Errorf("%s: emu: link %s: a kernel link's queue (threshold-mark between external forwarders) is a tc byte FIFO of IP fragments, which cannot count NDN packets: give the link max-queue-bytes", sc.File, l))
	case l.QueuePackets > 0 && l.QueuePackets*minWirePacket < l.QueueBytes:
		errs = append(errs, fmt.Errorf("%s: emu: link %s: max-queue-size %d could bind before max-queue-bytes %d, and a kernel link's tc FIFO takes one byte limit: raise max-queue-size to at least %d or drop max-queue-bytes", sc.File, l, l.QueuePackets, l.QueueBytes, (l.QueueBytes+minWirePacket-1)/minWirePacket))
	}
	return errs
}

// Loopback address blocks of the run's namespace, one address per link
// direction (loopbackAddr), which that direction's tc filter matches as
// the destination: the kernel links' relay sockets and the external TCP
// tunnels' proxies.
const (
	kernelBlock = 1 // 127.1.x.y
	tunnelBlock = 2 // 127.2.x.y
)

// loopbackAddr is direction d's address (0: A→B, 1: B→A) of link i in
// block: 127.block.x.y.
func loopbackAddr(block byte, i, d int) net.IP {
	n := 2*i + d + 1
	return net.IPv4(127, block, byte(n>>8), byte(n))
}

// setupKernelLoopback brings the namespace's loopback up with the
// kernel links' MTU and an HTB root whose unclassified traffic (the
// relays' deliveries, management) is not shaped. It runs in the namespace.
func setupKernelLoopback() error {
	for _, args := range [][]string{
		{"ip", "link", "set", "lo", "up", "mtu", strconv.Itoa(kernelMTU)},
		{"tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb"},
	} {
		if err := command(args...); err != nil {
			return err
		}
	}
	return nil
}

// shapeKernelDirection sends every packet to dst through HTB class
// 1:minor at the link's rate, into a byte FIFO (handle minor:) of the
// link's byte limit. It runs in the namespace.
func shapeKernelDirection(minor int, l topology.Link, dst net.IP) error {
	class, leaf := fmt.Sprintf("1:%x", minor), fmt.Sprintf("%x:", minor)
	rate := strconv.FormatFloat(l.Bandwidth, 'f', 0, 64) + "bit"
	for _, args := range [][]string{
		{"tc", "class", "add", "dev", "lo", "parent", "1:", "classid", class, "htb", "rate", rate, "ceil", rate, "quantum", strconv.Itoa(kernelMTU + 14)},
		{"tc", "qdisc", "add", "dev", "lo", "parent", class, "handle", leaf, "bfifo", "limit", strconv.Itoa(l.QueueBytes)},
		{"tc", "filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "prio", "1", "u32",
			"match", "ip", "dst", dst.String() + "/32", "flowid", class},
	} {
		if err := command(args...); err != nil {
			return err
		}
	}
	return nil
}

// KernelQueue is one kernel link direction's tc FIFO, as its counters
// stood at the end of the run: IP fragments and their bytes (Ethernet
// and IP headers included) that left it, and fragments it dropped (a
// datagram loses all of itself with one).
type KernelQueue struct {
	From             string `json:"from"`
	To               string `json:"to"`
	Fragments        uint64 `json:"fragments"`
	Bytes            uint64 `json:"bytes"`
	DroppedFragments uint64 `json:"dropped_fragments"`
}

// KernelUDP are the UDP counters of the kernel links' namespace (its
// /proc/net/snmp) at the end of the run: datagrams its sockets received
// and sent, and those lost because a receiving socket's buffer was full
// (a forwarder or relay that did not read in time) or a send failed for
// want of buffer space.
type KernelUDP struct {
	InDatagrams  uint64 `json:"in_datagrams"`
	OutDatagrams uint64 `json:"out_datagrams"`
	RcvbufErrors uint64 `json:"rcvbuf_errors"`
	SndbufErrors uint64 `json:"sndbuf_errors"`
}

// readKernelUDP reads the calling thread's namespace's UDP counters.
func readKernelUDP() (KernelUDP, error) {
	var k KernelUDP
	b, err := os.ReadFile("/proc/thread-self/net/snmp")
	if err != nil {
		return k, err
	}
	var names []string
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "Udp:" {
			continue
		}
		if names == nil {
			names = f[1:]
			continue
		}
		for i, v := range f[1:] {
			if i >= len(names) {
				break
			}
			n, _ := strconv.ParseUint(v, 10, 64)
			switch names[i] {
			case "InDatagrams":
				k.InDatagrams = n
			case "OutDatagrams":
				k.OutDatagrams = n
			case "RcvbufErrors":
				k.RcvbufErrors = n
			case "SndbufErrors":
				k.SndbufErrors = n
			}
		}
		return k, nil
	}
	return k, errors.New("no Udp: counters in /proc/thread-self/net/snmp")
}

// kernelQueues reads the kernel links' FIFO counters and UDP counters in
// the namespace.
func (r *run) kernelQueues() ([]KernelQueue, *KernelUDP, error) {
	if r.ns == nil || len(r.kernel) == 0 {
		return nil, nil, nil
	}
	var stats map[string]qdiscStats
	var udp KernelUDP
	if err := r.ns.do(func() (err error) {
		if stats, err = fifoStats(); err != nil {
			return err
		}
		udp, err = readKernelUDP()
		return err
	}); err != nil {
		return nil, nil, fmt.Errorf("emu: kernel links' counters: %w", err)
	}
	var out []KernelQueue
	for _, rl := range r.kernel {
		for d := range 2 {
			if rl.class[d] == 0 {
				continue
			}
			st := stats[fmt.Sprintf("%x:", rl.class[d])]
			out = append(out, KernelQueue{From: rl.ends[d].node, To: rl.ends[1-d].node,
				Fragments: st.Packets, Bytes: st.Bytes, DroppedFragments: st.Drops})
		}
	}
	return out, &udp, nil
}
