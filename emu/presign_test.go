package emu

import (
	"context"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
)

// TestPresignedEvictsTheOldest: the store keeps what fits its limit,
// dropping the objects used longest ago, never the one just stored.
func TestPresignedEvictsTheOldest(t *testing.T) {
	obj := func(n int) *presignedObject {
		return &presignedObject{wires: [][]byte{make([]byte, n)}, bytes: int64(n)}
	}
	k := func(prefix string) presignKey { return presignKey{prefix: prefix} }
	var ps Presigned
	ps.store(k("/a"), obj(40), 100)
	ps.store(k("/b"), obj(40), 100)
	if _, ok := ps.take(k("/a")); !ok { // /a is now the newer
		t.Fatal("/a was not kept")
	}
	ps.store(k("/c"), obj(40), 100)
	for prefix, want := range map[string]bool{"/a": true, "/b": false, "/c": true} {
		if _, ok := ps.take(k(prefix)); ok != want {
			t.Errorf("%s kept %v, want %v", prefix, ok, want)
		}
	}
	ps.store(k("/d"), obj(500), 100)
	if _, ok := ps.take(k("/d")); !ok || len(ps.objects) != 1 {
		t.Errorf("an object over the limit: kept %v, %d objects; want it alone", ok, len(ps.objects))
	}
	var none *Presigned
	none.store(k("/a"), obj(1), 100) // a run without a store
	if _, ok := none.take(k("/a")); ok {
		t.Error("a nil store gave an object")
	}
}

// TestPresignShare: the budget is shared among the producers ndncc
// serves; Check refuses a negative one.
func TestPresignShare(t *testing.T) {
	sc := &scenario.Scenario{Producers: []scenario.Producer{{Prefix: "/a"}, {Prefix: "/b"}, {Prefix: "/c", Program: "ndnputchunks"}}}
	if got := presignShare(sc, 1000); got != 500 {
		t.Errorf("share of 1000 bytes among two producers: %d, want 500", got)
	}
	if got := presignShare(&scenario.Scenario{}, 1000); got != 1000 {
		t.Errorf("share with no producer: %d, want 1000", got)
	}
	err := Check(linear(t), Options{PresignBytes: -1})
	if err == nil || !strings.Contains(err.Error(), "presign budget -1") {
		t.Errorf("Check with a budget of -1: %v, want it refused", err)
	}
}

// TestPresignBudget runs linear-fixed32's 200 kB object (196 segments)
// twice with a presign budget of 100 kB and one store: the first run's
// producer presigns the segments whose Data fit the budget, signs the rest
// when asked for and says so, and the flow gets the producer's bytes; the
// second run takes the first's presigned Data and key instead of signing
// them again, and its flow verifies them.
func TestPresignBudget(t *testing.T) {
	realtimetest.Require(t)
	const size, segments, budget = 200000, 196, 100000
	sc := linear(t, "producer[0].file-size=200000")
	var ps Presigned
	var first *presignedObject
	for run := range 2 {
		res, err := Run(context.Background(), sc.Clone(), Options{PresignBytes: budget, Presigned: &ps})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if f := res.Flows[0]; !f.Complete || f.Error != "" || f.Bytes != size {
			t.Fatalf("run %d: flow complete %v, error %q, %d bytes; want the %d bytes", run, f.Complete, f.Error, f.Bytes, size)
		}
		if len(ps.objects) != 1 {
			t.Fatalf("run %d: the store holds %d objects, want 1", run, len(ps.objects))
		}
		var o *presignedObject
		for _, x := range ps.objects {
			o = x
		}
		if n := len(o.wires); n == 0 || n >= segments || o.bytes > budget || o.bytes+int64(len(o.wires[0]))+24 <= budget {
			t.Errorf("run %d: %d segments presigned in %d bytes; want as many as a %d-byte budget holds, not all %d", run, n, o.bytes, budget, segments)
		}
		if run == 0 {
			first = o
		} else if o != first {
			t.Error("the second run signed its object again instead of taking the first's")
		}
		if len(res.Producers) != 1 {
			t.Fatalf("run %d: %d producers in the result, want 1", run, len(res.Producers))
		}
		p := res.Producers[0]
		if p.Presigned < uint64(len(o.wires)) || p.SignedOnDemand == 0 || p.DataSent != p.Presigned+p.SignedOnDemand {
			t.Errorf("run %d: producer %+v; want the %d presigned segments sent, the rest signed on demand", run, p, len(o.wires))
		}
	}
}

// TestPresignedKeepsOneSignerPerPrefix: a replica whose object the store
// holds signed by another key than the one its prefix has in this run
// signs it again, so that a fetch from both replicas finds one signer.
// The first run serves the second replica's object alone (its key goes to
// the store); the second runs both replicas, the first of which, serving
// another freshness, has no stored object and makes a new key.
func TestPresignedKeepsOneSignerPerPrefix(t *testing.T) {
	realtimetest.Require(t)
	both := strings.Replace(replicasTOML, "node = \"p2\"\nprefix = \"/replicated\"\n", "node = \"p2\"\nprefix = \"/replicated\"\nfreshness = \"5s\"\n", 1)
	if both == replicasTOML {
		t.Fatal("could not give the second replica its own freshness")
	}
	alone := strings.Replace(both, "[[producer]]\nnode = \"p1\"\nprefix = \"/replicated\"\nfile-size = 2000000\n", "", 1)
	if alone == both {
		t.Fatal("could not leave out the first replica")
	}
	var ps Presigned
	for run, text := range []string{alone, both} {
		sc, err := scenario.Parse([]byte(text), "replicas.toml")
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), sc, Options{Presigned: &ps})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if f := res.Flows[0]; !f.Complete || f.Error != "" || f.Bytes != 2000000 {
			t.Fatalf("run %d: flow complete %v, error %q, %d bytes; want the 2000000 bytes", run, f.Complete, f.Error, f.Bytes)
		}
	}
	var certs []*ndn.Data
	for _, o := range ps.objects {
		certs = append(certs, o.signing.Cert)
	}
	if len(certs) != 2 || certs[0] != certs[1] {
		t.Errorf("the store holds %d objects; want the two replicas', signed by one key", len(certs))
	}
}
