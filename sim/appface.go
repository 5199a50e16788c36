package sim

import (
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/ndn"
)

// appFace connects an application (consumer or producer) with its node's
// forwarder, both ways, in zero virtual time. Each side gets a packet at
// once, inside the other's Send, unless that would re-enter it:
//   - a packet the application sends goes straight into the forwarder's
//     Receive, which queues it if the forwarder is busy (its own guard);
//   - a packet the forwarder sends goes straight to the application,
//     unless the application is itself inside its Send to the forwarder
//     (a Nack or a cached Data answering the Interest it is sending): then
//     it waits in a FIFO for an event of its own, due now.
//
// Before, both directions took an event of their own (docs/performance.md
// says what that changes: the order of work at one instant only).
type appFace struct {
	s       *Scheduler
	app     application // set once the application is made
	fw      *fw.Forwarder
	id      fw.FaceID // the application's face on fw
	sending bool      // the application is inside toForwarder.Send
	q       fifo.Queue[ndn.Packet]
	fn      func()
	// tap, if set, is told of every packet the application sends (the
	// ndnSIM-format traces).
	tap func(*ndn.Packet)
}

// application is what an appFace hands the forwarder's packets to: a
// consumer's pipeline, a traffic application or a producer, called through
// the interface (a closure around its OnPacket would be one call more per
// packet).
type application interface{ OnPacket(ndn.Packet) }

// newAppFace returns the face of an application on forwarder f; the
// caller sets its app before any packet flows.
func newAppFace(s *Scheduler, f *fw.Forwarder) *appFace {
	a := &appFace{s: s, fw: f}
	a.fn = a.pop
	return a
}

// Send implements ndn.Face for the forwarder: p goes to the application.
func (a *appFace) Send(p ndn.Packet) {
	if !a.sending {
		a.app.OnPacket(p)
		return
	}
	a.q.Push(p)
	a.s.At(a.s.Now(), a.fn)
}

func (a *appFace) pop() {
	a.app.OnPacket(*a.q.Front()) // dropped after, as in reentry.Guard
	a.q.Drop()
}

// toForwarder is the application's side of an appFace.
type toForwarder struct{ a *appFace }

// Send implements ndn.Face for the application: p goes to the forwarder.
func (t toForwarder) Send(p ndn.Packet) {
	a := t.a
	if a.tap != nil {
		c := p // the tap gets a copy's address: p itself stays off the heap
		a.tap(&c)
	}
	was := a.sending
	a.sending = true
	a.fw.Receive(a.id, p)
	a.sending = was
}
