package aqm

import (
	"math"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// The tests identify packets by a number they carry in the packet's Nack
// field, which no discipline reads or touches (the packets are otherwise
// empty: a queue does not look inside them).

// testItem returns a size-byte Item whose packet carries id.
func testItem(id uint64, size int) Item {
	return Item{Pkt: ndn.Packet{Nack: ndn.NackReason(id)}, Size: size}
}

// idOf returns the id testItem gave it.
func idOf(it Item) uint64 { return uint64(it.Pkt.Nack) }

// ms returns f milliseconds, rounded to the nanosecond.
func ms(f float64) time.Duration { return time.Duration(math.Round(f * float64(time.Millisecond))) }

// ndnInterest, ndnNack and ndnData return one packet of each type.
func ndnInterest() ndn.Packet {
	return ndn.Packet{Interest: &ndn.Interest{Nonce: 1}}
}

func ndnNack() ndn.Packet {
	return ndn.Packet{Interest: &ndn.Interest{Nonce: 1}, Nack: ndn.NackCongestion}
}

func ndnData() ndn.Packet {
	return ndn.Packet{Data: &ndn.Data{ContentLen: 1000}}
}

// enqueueN enqueues n 1000-byte items numbered from next at time at, and
// returns the number after the last.
func enqueueN(t *testing.T, q Queue, next uint64, n int, at time.Duration) uint64 {
	t.Helper()
	for range n {
		if !q.Enqueue(testItem(next, 1000), at) {
			t.Fatalf("enqueue of item %d at %v refused", next, at)
		}
		next++
	}
	return next
}
