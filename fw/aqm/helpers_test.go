package aqm

import (
	"math"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// The tests identify packets by their TxSeq, which no discipline touches.

// testItem returns a size-byte Item whose packet has id as its TxSeq.
func testItem(id uint64, size int) Item {
	return Item{Pkt: ndn.Packet{TxSeq: id}, Size: size}
}

// idOf returns the id testItem gave it.
func idOf(it Item) uint64 { return it.Pkt.TxSeq }

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
