// Package eventloop is the live runtime's clock and event loop: a
// real-time sched.Scheduler on one goroutine that runs every timer
// callback, every posted function and every batch of input a socket
// reader hands it, one at a time. The forwarder daemon (live/fwd), the
// applications (live: fetch and serve) and the emulator (emu) each run
// their protocol code on a Loop.
//
// It owns:
//
//   - the loop's clock (Now, from New) and timers (After, NewTimer);
//   - Post, for other goroutines to hand the loop work, and Deliver, for
//     socket readers to hand it input (a Batch) with the time they read
//     it, so that input read before a timer was due is handled first;
//   - stall accounting (Stalls) and the catch-up after a stall, which
//     reads in what waits in the registered sources' sockets (Source)
//     before overdue timers run;
//   - output flushing: a Flusher marked dirty writes once the events at
//     hand are handled, before the loop next waits.
//
// It knows nothing of packets, faces or forwarding: it must never import
// ndn, the protocol core (cc, consumer, producer, fw, link, mgmt), live,
// live/face, live/fwd, emu nor sim. The core never imports it: the core
// sees a Loop only as a sched.Scheduler.
package eventloop
