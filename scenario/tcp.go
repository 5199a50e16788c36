package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ndncc/ndncc/topology"
)

// TCP defaults, used for every key a [[tcp]] table leaves out.
const (
	// DefaultTCPAlgorithm is the window policy of a TCP flow: NewReno.
	DefaultTCPAlgorithm = TCPReno
	// DefaultMSS is the TCP maximum segment size in bytes: a 1500-byte
	// Ethernet MTU minus IPv4 (20), TCP (20) and the timestamps option
	// (12), what Linux sends on such a link.
	DefaultMSS = 1448
	// MaxMSS is the largest MSS an IPv4 datagram can carry: 65535 minus
	// the IPv4 header (20) and the TCP header with timestamps (32).
	MaxMSS = 65535 - 20 - 32
)

// TCP window policies a [[tcp]] flow may use.
const (
	TCPReno  = "reno"  // NewReno (RFC 5681, RFC 6582)
	TCPCubic = "cubic" // CUBIC (RFC 9438) with NewReno's loss recovery
)

// TCPAlgorithms returns every window policy a TCP flow may use.
func TCPAlgorithms() []string { return []string{TCPReno, TCPCubic} }

// TCPFlow is one bulk TCP transfer sharing the network with the NDN flows:
// From sends Size bytes to To over IP, routed along the topology's
// shortest paths (the simulator's TCP baseline).
type TCPFlow struct {
	// ID names the flow in results; unique among TCP flows and consumers.
	ID string
	// From is the sending node, To the receiving one.
	From, To string
	// Size is the number of bytes to transfer.
	Size int64
	// Algorithm is the window policy: one of TCPAlgorithms.
	Algorithm string
	// Start is when the sender starts, in simulated time.
	Start time.Duration
	// MSS is the payload of every segment but the last, in bytes.
	MSS int
	Pos topology.Pos
}

// NewTCPFlow returns a TCP flow with ID to (the receiver's name, as a
// consumer's ID is its node's), the default algorithm and MSS, starting at
// DefaultStart.
func NewTCPFlow(from, to string, size int64) TCPFlow {
	return TCPFlow{ID: to, From: from, To: to, Size: size, Algorithm: DefaultTCPAlgorithm, Start: DefaultStart, MSS: DefaultMSS}
}

// tcp decodes one [[tcp]] entry.
func (d *decoder) tcp(m map[string]any, path string) TCPFlow {
	d.known(m, path, append([]string{"id"}, tcpKeys()...)...)
	f := NewTCPFlow("", "", 0)
	f.Pos = d.at(path)
	d.str(m, path, "to", &f.To)
	f.ID = f.To
	d.str(m, path, "id", &f.ID)
	d.tcpKeys(m, path, &f)
	return f
}

// tcpKeys are the keys of a [[tcp]] entry but its id.
func tcpKeys() []string { return []string{"from", "to", "size", "algorithm", "start", "mss"} }

// tcpKeys decodes the keys m gives but id into f.
func (d *decoder) tcpKeys(m map[string]any, path string, f *TCPFlow) {
	d.str(m, path, "from", &f.From)
	d.str(m, path, "to", &f.To)
	d.size(m, path, "size", &f.Size)
	d.str(m, path, "algorithm", &f.Algorithm)
	d.duration(m, path, "start", &f.Start)
	d.integerInt(m, path, "mss", &f.MSS)
}

// tcpFlows checks every TCP flow; ids holds the consumer IDs already
// taken, by the path that took them.
func (v *validator) tcpFlows(ids map[string]string) {
	for i, f := range v.s.TCP {
		path := fmt.Sprintf("tcp[%d]", i)
		switch first, dup := ids[f.ID]; {
		case f.ID == "":
			if f.To != "" { // else the missing receiver is the error
				v.errorf(path+".id", f.Pos, "must not be empty")
			}
		case dup:
			v.errorf(path+".id", f.Pos, "id %q is already used by %s (set a unique id)", f.ID, first)
		default:
			ids[f.ID] = path
		}
		v.tcp(path, f)
	}
}

func (v *validator) tcp(path string, f TCPFlow) {
	v.node(path+".from", f.From, f.Pos)
	v.node(path+".to", f.To, f.Pos)
	if t := v.s.Topology; t != nil && f.From != "" && f.To != "" && t.HasNode(f.From) && t.HasNode(f.To) {
		switch {
		case f.From == f.To:
			v.errorf(path+".to", f.Pos, "is the sender itself (%q)", f.To)
		case !v.connected(f.From, f.To):
			v.errorf(path+".to", f.Pos, "node %q is not reachable from %q", f.To, f.From)
		}
	}
	switch {
	case f.Size == 0:
		v.errorf(path+".size", f.Pos, "required (the bytes to transfer, or a string with a unit such as \"10MiB\")")
	case f.Size < 0:
		v.errorf(path+".size", f.Pos, "must be positive, got %d", f.Size)
	case f.Size > MaxObjectBytes:
		v.errorf(path+".size", f.Pos, "%d bytes is over the limit of 1 TiB", f.Size)
	}
	if !slices.Contains(TCPAlgorithms(), f.Algorithm) {
		v.errorf(path+".algorithm", f.Pos, "unknown algorithm %q (use one of %s)", f.Algorithm, strings.Join(TCPAlgorithms(), ", "))
	}
	if f.Start < 0 {
		v.errorf(path+".start", f.Pos, "must not be negative, got %v", f.Start)
	} else if v.s.Duration > 0 && f.Start >= v.s.Duration {
		v.errorf(path+".start", f.Pos, "%v is not before the end of the run (duration %v)", f.Start, v.s.Duration)
	}
	if f.MSS < 1 || f.MSS > MaxMSS {
		v.errorf(path+".mss", f.Pos, "must be between 1 and %d bytes, got %d", MaxMSS, f.MSS)
	}
}
