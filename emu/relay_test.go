package emu

import (
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// TestRelay carries Interests between two UDP sockets standing for two
// forwarders' faces through a relayed link: each arrives at the far end,
// re-encoded with its CongestionMark, no earlier than the link's delay,
// and the direction's counters count it; a direction with loss 1 carries
// nothing.
func TestRelay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		delay   time.Duration
		loss    float64
		arrives bool
	}{
		{"delayed", 20 * time.Millisecond, 0, true},
		{"no delay", 0, 0, true},
		{"all lost", 0, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := topology.Link{A: "a", B: "b", Bandwidth: 10e6, Delay: tc.delay, QueuePackets: 10, Loss: tc.loss}
			sc := scenario.Default()
			sc.Topology = &topology.Topology{Links: []topology.Link{l}}
			r := &run{sc: sc, seed: 1, log: slog.New(slog.DiscardHandler)}
			r.failed = make(chan struct{})
			r.netCtx, r.stopNet = context.WithCancel(context.Background())
			rl, err := r.newRelay(l, [2]relayListen{listenHere, listenHere}, [2]net.IP{}, false)
			if err != nil {
				t.Fatal(err)
			}
			fa, fb := listenUDP(t), listenUDP(t)
			rl.setPeer("a", fa.LocalAddr().(*net.UDPAddr))
			rl.setPeer("b", fb.LocalAddr().(*net.UDPAddr))
			r.startRelay(rl)
			defer func() { r.stopNet(); r.wg.Wait() }()

			name, _ := ndn.ParseName("/x/y")
			wire, err := ndn.EncodeFrame(&ndn.Packet{Interest: &ndn.Interest{Name: name, Nonce: 7, Lifetime: time.Second}, CongestionMark: 1})
			if err != nil {
				t.Fatal(err)
			}
			sent := time.Now()
			if _, err := fa.WriteToUDP(wire, rl.addrOf("a")); err != nil {
				t.Fatal(err)
			}
			fb.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
			buf := make([]byte, 9000)
			n, from, err := fb.ReadFromUDP(buf)
			if !tc.arrives {
				if err == nil {
					t.Fatalf("a packet arrived over a link that loses all")
				}
				return
			}
			if err != nil {
				t.Fatalf("nothing arrived: %v", err)
			}
			if got := time.Since(sent); got < tc.delay {
				t.Errorf("arrived after %v, before the link's delay %v", got, tc.delay)
			}
			if from.String() != rl.addrOf("b").String() {
				t.Errorf("arrived from %v, want the relay's socket for b %v", from, rl.addrOf("b"))
			}
			p, err := ndn.DecodeFrame(buf[:n])
			if err != nil || p.Interest == nil || p.Interest.Name.String() != name.String() || p.CongestionMark != 1 {
				t.Fatalf("arrived %+v, %v; want the Interest /x/y with its mark", p, err)
			}
			var lr sim.LinkResult
			if err := rl.do(func() { lr = sim.NewLinkResult(rl.dirs[0], time.Second) }); err != nil {
				t.Fatal(err)
			}
			if lr.From != "a" || lr.To != "b" || lr.Interests != 1 || lr.Packets != 1 {
				t.Errorf("direction a->b counted %+v; want 1 Interest", lr)
			}
		})
	}
}

func listenUDP(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
