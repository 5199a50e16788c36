// Package tcp is the TCP the simulator compares NDN with: a bulk sender
// and its receiver, sans-IO like the rest of the core. A Sender runs on a
// sched.Scheduler (its retransmission timer) and hands each segment to a
// send function; the runtime carries segments and ACKs and calls
// Sender.OnAck and Receiver.OnSegment when they arrive. Segments are
// numbered (byte offsets and IP are the runtime's: package sim binds
// flows to its links and forwards them hop by hop).
//
// # Receiver
//
// The receiver acknowledges every data segment at once with a cumulative
// ACK (the next segment it expects): no delayed ACKs, no SACK. Segments
// that arrive beyond a hole are kept (a bitmap over the window) and
// delivered when the hole fills. The receive window is unlimited.
//
// # Sender
//
// The sender owns the sequence state (segment numbers; snd.una, snd.nxt,
// the highest segment sent), the send times that give RTT samples, the RTO
// timer and the loss recovery; the window algorithm (Algorithm: cc's aimd
// for Reno, cc's cubic for CUBIC, see NewAlgorithm) owns only cwnd and
// ssthresh. It is told of each ACK that acknowledges new data outside loss
// recovery (OnData, once per ACK), of each loss episode (OnDecrease:
// cc.CauseHole for a fast retransmit, cc.CauseTimeout for an RTO) and of
// every RTO (OnRTO). The sender adds the loss recovery:
//
//   - Fast retransmit and NewReno fast recovery (RFC 5681, RFC 6582): the
//     third duplicate ACK retransmits snd.una and decreases the window
//     (ssthresh = cwnd × beta, cwnd = ssthresh); while recovering the
//     window is ssthresh + the duplicate ACKs seen (inflation, starting at
//     3); a partial ACK retransmits the next hole, deflates the window by
//     the segments it acknowledged and adds one, and re-arms the RTO timer
//     if it is the first (the "impatient" variant); a full ACK (one that
//     covers every segment sent before recovery began) ends recovery with
//     the window at ssthresh. A new recovery starts only once snd.una has
//     passed the highest segment sent when the previous one (or the last
//     RTO) began.
//   - Retransmission timeout (RFC 6298, RFC 5681 §3.1): one timer, armed
//     when data is sent and none is running, restarted by every ACK of new
//     data. On expiry the RTO doubles (package rtt's estimator: initial
//     1 s, min 200 ms, max 10 s); ssthresh is decreased through the
//     algorithm (only for the first expiry of a series, and not when the
//     loss was already acted on by a fast recovery in progress); the
//     algorithm's OnRTO then puts cwnd back to its initial window with that
//     ssthresh, so that it slow-starts back (RFC 5681's loss window; CUBIC
//     also forgets W_max, as Linux's cubic does on an RTO); and the sender
//     goes back to snd.una (go-back-N), resending what follows as the
//     window allows.
//
// RTT samples follow Karn's rule: an ACK that acknowledges new data gives
// the time since the newest segment it acknowledges was sent, unless some
// segment it acknowledges was ever retransmitted. Per-segment state (send
// time, retransmitted flag) lives in a ring over [snd.una, highest sent]
// and the receiver's in a bitmap over its window: a flow's memory is
// bounded by its window, not by the size of the transfer.
//
// This package imports cc, rtt, sched and the core's internal helpers; it
// never reads the wall clock, starts a goroutine or touches a socket.
package tcp
