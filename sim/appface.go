package sim

import "github.com/ndncc/ndncc/ndn"

// appFace connects an application (consumer or producer) with its node's
// forwarder. Packets cross it in zero virtual time but through the event
// queue, so neither side is ever re-entered from inside its own Send.
type appFace struct {
	s       *Scheduler
	deliver func(ndn.Packet)
	q       []ndn.Packet
	head    int
	fn      func()
}

func newAppFace(s *Scheduler, deliver func(ndn.Packet)) *appFace {
	f := &appFace{s: s, deliver: deliver}
	f.fn = f.pop
	return f
}

// Send implements ndn.Face.
func (f *appFace) Send(p ndn.Packet) {
	f.q = append(f.q, p)
	f.s.at(f.s.Now(), f.fn)
}

func (f *appFace) pop() {
	p := f.q[f.head]
	f.q[f.head] = ndn.Packet{}
	f.head++
	if f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	}
	f.deliver(p)
}
