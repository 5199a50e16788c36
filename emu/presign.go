package emu

import (
	"sync"
	"time"

	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/scenario"
)

// DefaultPresignBytes is how much signed Data a run's producers prepare
// before it starts (Options.PresignBytes): 1 GiB, shared equally among
// them. An object that does not fit is presigned from its beginning, and
// its later segments are signed when asked for.
const DefaultPresignBytes int64 = 1 << 30

// Presigned keeps the producers' presigned objects of one run for the
// next runs of the same process (Options.Presigned): a producer of the
// same prefix, signature, content, segment size and freshness takes them
// and its signing key as they are, instead of signing its object again.
// The variants of an experiment run live share their objects this way,
// each otherwise a wait of minutes for RSA signatures. It holds at most
// one run's budget (Options.PresignBytes); the objects used longest ago go
// first. Safe for concurrent use.
type Presigned struct {
	mu      sync.Mutex
	objects map[presignKey]*presignedObject
	used    uint64 // a clock for the objects' last use
}

// presignKey says which object a producer serves: every input of its
// signed Data but the key, which the object keeps.
type presignKey struct {
	prefix, signature string
	seed              uint64
	size              int64
	segmentSize       int
	freshness         time.Duration
}

type presignedObject struct {
	signing live.Signing
	wires   [][]byte
	bytes   int64
	used    uint64
}

func keyOf(p scenario.Producer, seed uint64) presignKey {
	return presignKey{prefix: p.Prefix, signature: p.Signature, seed: seed, size: p.FileSize, segmentSize: p.SegmentSize, freshness: p.Freshness}
}

// take returns the object stored for k, if any.
func (ps *Presigned) take(k presignKey) (*presignedObject, bool) {
	if ps == nil {
		return nil, false
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	o, ok := ps.objects[k]
	if ok {
		ps.used++
		o.used = ps.used
	}
	return o, ok
}

// store keeps o for k, then drops the objects used longest ago while the
// store holds more than limit bytes (o stays).
func (ps *Presigned) store(k presignKey, o *presignedObject, limit int64) {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.objects == nil {
		ps.objects = map[presignKey]*presignedObject{}
	}
	ps.used++
	o.used = ps.used
	ps.objects[k] = o
	for {
		var total int64
		var oldest presignKey
		var found bool
		for key, x := range ps.objects {
			total += x.bytes
			if x != o && (!found || x.used < ps.objects[oldest].used) {
				oldest, found = key, true
			}
		}
		if total <= limit || !found {
			return
		}
		delete(ps.objects, oldest)
	}
}

// presignShare is the part of budget each producer of sc gets: the
// budget divided equally among the producers ndncc serves (a program
// producer signs its own).
func presignShare(sc *scenario.Scenario, budget int64) int64 {
	n := int64(0)
	for _, p := range sc.Producers {
		if p.Program == "" {
			n++
		}
	}
	return budget / max(n, 1)
}

// ProducerResult is what one producer ndncc served sent: Data in all,
// those it had presigned, and those it signed when an Interest asked for
// them (beyond its share of Options.PresignBytes, emu --presign-budget), each of which waited
// for its signature.
type ProducerResult struct {
	Node           string `json:"node"`
	Prefix         string `json:"prefix"`
	DataSent       uint64 `json:"data_sent"`
	Presigned      uint64 `json:"presigned_sent"`
	SignedOnDemand uint64 `json:"signed_on_demand"`
}

// servedObject is a producer ndncc serves, with the loop it runs on.
type servedObject struct {
	p    scenario.Producer
	srv  *live.Server
	loop *eventloop.Loop
}

// producerResults reads each producer's counters on its loop; one whose
// loop has stopped (its failure is the run's error) is left out.
func (r *run) producerResults() []ProducerResult {
	var out []ProducerResult
	for _, s := range r.servers {
		got := make(chan live.ServerStats, 1)
		s.loop.Post(func() { got <- s.srv.Stats() })
		select {
		case st := <-got:
			out = append(out, ProducerResult{Node: s.p.Node, Prefix: s.p.Prefix, DataSent: st.DataSent,
				Presigned: st.CacheHits, SignedOnDemand: st.DataSent - st.CacheHits})
		case <-r.netCtx.Done():
		case <-r.failed:
		}
	}
	return out
}
