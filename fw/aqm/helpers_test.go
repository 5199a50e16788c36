package aqm

import (
	"math"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// The tests identify packets by their TxSeq, which no discipline touches.

// testItem returns a size-byte Item whose packet has id as its TxSeq.
func testItem(id uint64, size int) Item {
	return Item{Pkt: ndn.Packet{TxSeq: id}, Size: size}
}

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
