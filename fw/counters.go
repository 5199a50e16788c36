package fw

// FaceCounters are the network-layer packets one face received and sent
// (the counters of NFD's FaceStatus).
type FaceCounters struct {
	InInterests  uint64 // Interests received (Nacks excluded)
	OutInterests uint64 // Interests sent
	InData       uint64 // Data received
	OutData      uint64 // Data sent (Content Store hits included)
	InNacks      uint64 // Nacks received
	OutNacks     uint64 // Nacks sent
}

// Counters are a forwarder's packet and table counters.
type Counters struct {
	InInterests  uint64 // Interests received (Nacks excluded)
	OutInterests uint64 // Interests sent upstream
	InData       uint64 // Data received
	OutData      uint64 // Data sent downstream (Content Store hits included)
	InNacks      uint64 // Nacks received
	OutNacks     uint64 // Nacks sent downstream

	CSHits   uint64 // Interests answered from the Content Store
	CSMisses uint64 // Content Store lookups that found nothing

	PITSize    int // PIT entries now
	CSSize     int // Data packets cached now
	DeadNonces int // (name, nonce) pairs in the dead-nonce list now

	// UnsatisfiedExpiries counts PIT entries that expired without Data.
	UnsatisfiedExpiries uint64
	// DuplicateNonceDrops counts looping Interests: a nonce already in
	// the PIT entry (from another downstream, or sent upstream) or in the
	// dead-nonce list. Each is answered with Nack Duplicate.
	DuplicateNonceDrops uint64
	// SuppressedRetx counts Interests a strategy did not forward because
	// of retransmission suppression; an Interest aggregated into a pending
	// entry from another downstream counts here too.
	SuppressedRetx uint64
	// MarksForwarded counts Data and Nacks sent downstream with a
	// CongestionMark.
	MarksForwarded uint64
	// UnsolicitedData counts Data that matched no PIT entry (dropped).
	UnsolicitedData uint64
	// DroppedNacks counts Nacks that matched no pending out-record.
	DroppedNacks uint64
	// HopLimitDrops counts Interests dropped for HopLimit 0, on arrival
	// from or before sending to a network face.
	HopLimitDrops uint64

	// Scope control (scope.go).
	//
	// ScopeInterestDrops counts /localhost Interests that arrived on a
	// network face (dropped).
	ScopeInterestDrops uint64
	// ScopeDataDrops counts /localhost Data that arrived on a network
	// face (dropped), or that would have been sent on one (not sent).
	ScopeDataDrops uint64
	// ScopeDeniedNexthops counts nexthops an Interest was not sent to for
	// scope: a network face for a /localhost Interest, or for a /localhop
	// Interest that arrived on a network face. One Interest may count
	// once per such nexthop and per forwarding decision.
	ScopeDeniedNexthops uint64

	// Limits (limits.go).
	//
	// PITLimitNacks counts Interests refused for want of PIT room (the
	// PIT's capacity, or their face's fair share), each answered with Nack
	// Congestion (also counted in OutNacks).
	PITLimitNacks uint64
	// NameTooLongDrops counts Interests, Data and Nacks dropped on arrival
	// for a name over the component limit.
	NameTooLongDrops uint64

	// Send failures reported with OnSendFailure (lossnack.go).
	//
	// LostInterests counts Interests reported lost while still awaited
	// from that upstream; each was handled as a Nack Congestion from it.
	LostInterests uint64
	// LostData counts Data reported lost for which a Nack Congestion went
	// to the downstream (also counted in OutNacks).
	LostData uint64
	// LostNacks counts Nacks reported lost and sent again.
	LostNacks uint64
	// UnmatchedLosses counts reports that led to nothing: a lost Nack, an
	// Interest no longer awaited (answered, retried or expired), a Data
	// whose Interest is not remembered (see EnableLossNacks).
	UnmatchedLosses uint64
}
