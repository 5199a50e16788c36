package ndn

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// name builds a name of generic components, for tests.
func name(comps ...string) Name {
	n := make(Name, len(comps))
	for i, c := range comps {
		n[i] = enc.NewGenericComponent(c)
	}
	return n
}

// linkFieldsDiff describes how a and b differ, "" when they are equal.
func linkFieldsDiff(a, b LinkFields) string {
	switch {
	case a.TxSeq != b.TxSeq:
		return fmt.Sprintf("TxSeq %d != %d", a.TxSeq, b.TxSeq)
	case !slices.Equal(a.Acks, b.Acks):
		return fmt.Sprintf("Acks %v != %v", a.Acks, b.Acks)
	}
	return ""
}

// packetDiff describes how a and b differ, "" when they carry the same
// packet (a lifetime compares by LifetimeOrDefault; Data.Wire and the Data
// size cache are not compared).
func packetDiff(a, b Packet) string {
	switch {
	case a.Nack != b.Nack:
		return fmt.Sprintf("Nack %v != %v", a.Nack, b.Nack)
	case a.CongestionMark != b.CongestionMark:
		return fmt.Sprintf("CongestionMark %d != %d", a.CongestionMark, b.CongestionMark)
	case !bytes.Equal(a.PitToken, b.PitToken):
		return fmt.Sprintf("PitToken %x != %x", a.PitToken, b.PitToken)
	case a.IncomingFaceID != b.IncomingFaceID:
		return fmt.Sprintf("IncomingFaceID %d != %d", a.IncomingFaceID, b.IncomingFaceID)
	case (a.Interest == nil) != (b.Interest == nil) || (a.Data == nil) != (b.Data == nil):
		return "different packet kinds"
	case a.Interest != nil:
		return interestDiff(a.Interest, b.Interest)
	case a.Data != nil:
		return dataDiff(a.Data, b.Data)
	}
	return ""
}

func interestDiff(a, b *Interest) string {
	switch {
	case !a.Name.Equal(b.Name):
		return fmt.Sprintf("Interest name %s != %s", a.Name, b.Name)
	case a.Nonce != b.Nonce:
		return fmt.Sprintf("Nonce %d != %d", a.Nonce, b.Nonce)
	case a.LifetimeOrDefault().Milliseconds() != b.LifetimeOrDefault().Milliseconds():
		return fmt.Sprintf("Lifetime %v != %v", a.LifetimeOrDefault(), b.LifetimeOrDefault())
	case a.CanBePrefix != b.CanBePrefix || a.MustBeFresh != b.MustBeFresh:
		return "selectors differ"
	case a.HasHopLimit != b.HasHopLimit || a.HopLimit != b.HopLimit:
		return fmt.Sprintf("HopLimit %t/%d != %t/%d", a.HasHopLimit, a.HopLimit, b.HasHopLimit, b.HopLimit)
	}
	return extDiff(extOf(a), extOf(b))
}

// extOf returns i.Ext or an empty one.
func extOf(i *Interest) *InterestExt {
	if i.Ext == nil {
		return &InterestExt{}
	}
	return i.Ext
}

// extDiff compares the parts of Interests that most lack (not Wire).
func extDiff(a, b *InterestExt) string {
	switch {
	case !slices.EqualFunc(a.ForwardingHint, b.ForwardingHint, Name.Equal) || (a.ForwardingHint == nil) != (b.ForwardingHint == nil):
		return fmt.Sprintf("ForwardingHint %v != %v", a.ForwardingHint, b.ForwardingHint)
	case !bytes.Equal(a.AppParams, b.AppParams) || (a.AppParams == nil) != (b.AppParams == nil):
		return fmt.Sprintf("AppParams %x != %x", a.AppParams, b.AppParams)
	case (a.Sig == nil) != (b.Sig == nil):
		return fmt.Sprintf("signed %t != %t", a.Sig != nil, b.Sig != nil)
	case a.Sig != nil && (a.Sig.Type != b.Sig.Type || !bytes.Equal(a.Sig.Value, b.Sig.Value) || !a.Sig.KeyLocator.Equal(b.Sig.KeyLocator)):
		return fmt.Sprintf("Signature %+v != %+v", *a.Sig, *b.Sig)
	}
	return ""
}

func dataDiff(a, b *Data) string {
	switch {
	case !a.Name.Equal(b.Name):
		return fmt.Sprintf("Data name %s != %s", a.Name, b.Name)
	case a.ContentType != b.ContentType:
		return fmt.Sprintf("ContentType %d != %d", a.ContentType, b.ContentType)
	case a.Freshness.Milliseconds() != b.Freshness.Milliseconds():
		return fmt.Sprintf("Freshness %v != %v", a.Freshness, b.Freshness)
	case a.HasFinal != b.HasFinal || (a.HasFinal && !a.FinalBlockID.Equal(b.FinalBlockID)):
		return fmt.Sprintf("FinalBlockId %t/%s != %t/%s", a.HasFinal, a.FinalBlockID, b.HasFinal, b.FinalBlockID)
	case !bytes.Equal(a.Content, b.Content) || a.ContentLen != b.ContentLen:
		return fmt.Sprintf("Content %d/%d bytes != %d/%d bytes", len(a.Content), a.ContentLen, len(b.Content), b.ContentLen)
	case a.Sig.Type != b.Sig.Type || a.Sig.ValueLen != b.Sig.ValueLen || !bytes.Equal(a.Sig.Value, b.Sig.Value):
		return fmt.Sprintf("Signature %d/%d != %d/%d", a.Sig.Type, a.Sig.ValueLen, b.Sig.Type, b.Sig.ValueLen)
	case !a.Sig.KeyLocator.Equal(b.Sig.KeyLocator):
		return fmt.Sprintf("KeyLocator %s != %s", a.Sig.KeyLocator, b.Sig.KeyLocator)
	}
	return ""
}

// randomPacket makes a random packet for property tests. It returns the
// packet as the simulator has it (no Content bytes, no signature value)
// and as the live runtime has it (same packet, with bytes), sharing the
// Interest.
func randomPacket(r *rand.Rand) (sim, live Packet, lf LinkFields) {
	if r.IntN(3) == 0 {
		i := randomInterest(r)
		sim.Interest, live.Interest = i, i
		if r.IntN(4) == 0 {
			nacks := []NackReason{NackCongestion, NackDuplicate, NackNoRoute, NackUnspecified, 300, 70000}
			sim.Nack = nacks[r.IntN(len(nacks))]
		}
	} else if r.IntN(10) > 0 {
		sim.Data, live.Data = randomData(r)
	}
	if r.IntN(3) == 0 {
		sim.CongestionMark = randomNat(r)
	}
	if r.IntN(3) == 0 {
		lf.TxSeq = r.Uint64() | 1
	}
	for n := r.IntN(4); n > 0 && r.IntN(2) == 0; n-- {
		lf.Acks = append(lf.Acks, r.Uint64())
	}
	if r.IntN(8) == 0 { // a local application's hop
		sim.PitToken = make([]byte, 1+r.IntN(32))
		for i := range sim.PitToken {
			sim.PitToken[i] = byte(r.Uint32())
		}
		sim.IncomingFaceID = randomNat(r)
	}
	live.Nack, live.CongestionMark = sim.Nack, sim.CongestionMark
	live.PitToken, live.IncomingFaceID = sim.PitToken, sim.IncomingFaceID
	return sim, live, lf
}

// randomNat returns a number whose NDN encoding is 1, 2, 4 or 8 bytes, often
// at a boundary.
func randomNat(r *rand.Rand) uint64 {
	edges := []uint64{1, 0xff, 0x100, 0xffff, 0x10000, 0xffffffff, 0x100000000, 1<<64 - 1}
	if r.IntN(2) == 0 {
		return edges[r.IntN(len(edges))]
	}
	return r.Uint64() >> r.IntN(64)
}

func randomName(r *rand.Rand, maxComps int) Name {
	n := make(Name, 1+r.IntN(maxComps))
	for i := range n {
		switch r.IntN(4) {
		case 0:
			n[i] = enc.NewSegmentComponent(randomNat(r))
		case 1:
			n[i] = enc.NewVersionComponent(randomNat(r))
		default:
			l := r.IntN(20)
			if r.IntN(8) == 0 {
				l = r.IntN(maxComponentLen + 1)
			}
			val := make([]byte, l)
			for j := range val {
				val[j] = byte(r.Uint32())
			}
			typ := enc.TypeGenericNameComponent
			if r.IntN(10) == 0 {
				typ = enc.TLNum(r.IntN(0x10000) + 1)
			}
			n[i] = enc.Component{Typ: typ, Val: val}
		}
	}
	return n
}

func randomInterest(r *rand.Rand) *Interest {
	i := &Interest{
		Name:        randomName(r, 8),
		Nonce:       r.Uint32(),
		CanBePrefix: r.IntN(2) == 0,
		MustBeFresh: r.IntN(2) == 0,
	}
	if r.IntN(2) == 0 {
		i.Lifetime = time.Duration(randomNat(r)>>20) * time.Millisecond
	}
	if r.IntN(2) == 0 {
		i.HopLimit, i.HasHopLimit = uint8(r.Uint32()), true
	}
	if r.IntN(8) == 0 {
		i.Ext = &InterestExt{ForwardingHint: make([]Name, r.IntN(3))}
		for j := range i.Ext.ForwardingHint {
			i.Ext.ForwardingHint[j] = randomName(r, 3)
		}
	}
	if r.IntN(8) == 0 {
		if i.Ext == nil {
			i.Ext = &InterestExt{}
		}
		i.Ext.AppParams = make([]byte, r.IntN(300))
		for j := range i.Ext.AppParams {
			i.Ext.AppParams[j] = byte(r.Uint32())
		}
	}
	return i
}

func randomData(r *rand.Rand) (sim, live *Data) {
	sim = &Data{Name: randomName(r, 8)}
	if r.IntN(3) == 0 {
		sim.ContentType = randomNat(r)
	}
	if r.IntN(2) == 0 {
		sim.Freshness = time.Duration(randomNat(r)>>24) * time.Millisecond
	}
	if r.IntN(2) == 0 {
		sim.FinalBlockID, sim.HasFinal = randomName(r, 1)[0], true
	}
	sizes := []int{0, 1, 252, 253, 1024, 8000, 65535, 65536}
	sim.ContentLen = sizes[r.IntN(len(sizes))]
	if r.IntN(2) == 0 {
		sim.ContentLen = r.IntN(9000)
	}
	switch r.IntN(5) {
	case 0:
		sim.Sig = Signature{Type: SigNone}
	case 1:
		sim.Sig = DigestSignature()
	case 2:
		sim.Sig = RSASignature(randomName(r, 6))
	case 3:
		sim.Sig = Signature{Type: SigSHA256WithECDSA, KeyLocator: randomName(r, 6), ValueLen: 64 + r.IntN(9)}
	default:
		sim.Sig = Signature{Type: SigEd25519, ValueLen: 64 + r.IntN(300)}
	}
	l := *sim
	live = &l
	live.Content = make([]byte, sim.ContentLen)
	for i := range live.Content {
		live.Content[i] = byte(i)
	}
	if sim.Sig.Type != SigNone {
		live.Sig.Value = make([]byte, sim.Sig.ValueLen)
		for i := range live.Sig.Value {
			live.Sig.Value[i] = byte(r.Uint32())
		}
	}
	return sim, live
}
