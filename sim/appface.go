package sim

import (
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/ndn"
)

// appFace connects an application (consumer or producer) with its node's
// forwarder. Packets cross it in zero virtual time but through the event
// queue, so neither side is ever re-entered from inside its own Send.
type appFace struct {
	s       *Scheduler
	deliver func(ndn.Packet)
	q       fifo.Queue[ndn.Packet]
	fn      func()
}

func newAppFace(s *Scheduler, deliver func(ndn.Packet)) *appFace {
	f := &appFace{s: s, deliver: deliver}
	f.fn = f.pop
	return f
}

// Send implements ndn.Face.
func (f *appFace) Send(p ndn.Packet) {
	f.q.Push(p)
	f.s.At(f.s.Now(), f.fn)
}

func (f *appFace) pop() {
	f.deliver(f.q.Pop())
}
