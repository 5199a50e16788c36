package mgmt

import (
	"fmt"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// TestFaceList decodes faces/list with ndnd's decoder (strict: unknown
// critical fields fail) and checks NFD's fields, the forwarder's per-face
// counters and ndncc's queue fields.
func TestFaceList(t *testing.T) {
	h := newHarness(t)
	h.m.Register(name(t, "/p"), Route{Face: h.net.ID}, 0)
	h.send(h.app, &ndn.Interest{Name: name(t, "/p/1"), Nonce: 1}) // app -> net
	h.fwd.Receive(h.net.ID, ndn.Packet{Data: &ndn.Data{Name: name(t, "/p/1")}})
	h.send(h.app, &ndn.Interest{Name: name(t, "/none"), Nonce: 2}) // Nack NoRoute to app
	h.faces.out[h.net.ID].take()

	content, segs := h.fetchDataset(h.app, "faces", "list")
	if len(segs) != 1 {
		t.Fatalf("%d segments", len(segs))
	}
	msg, err := nfd.ParseFaceStatusMsg(enc.NewBufferView(content), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Vals) != 3 {
		t.Fatalf("%d faces, want app, net and the manager's", len(msg.Vals))
	}
	app, net, internal := msg.Vals[0], msg.Vals[1], msg.Vals[2]
	checks := []struct {
		what      string
		got, want any
	}{
		{"app id", app.FaceId, uint64(h.app.ID)},
		{"app uri", app.Uri, "fd://7"},
		{"app local uri", app.LocalUri, "unix:///run/nfd/nfd.sock"},
		{"app scope", app.FaceScope, nfd.FaceScopeLocal},
		{"app persistency", app.FacePersistency, nfd.FacePersOnDemand},
		{"app in Interests", app.NInInterests, uint64(3)}, // two above, and faces/list
		{"app out Data", app.NOutData, uint64(1)},
		{"app out Nacks", app.NOutNacks, uint64(1)},
		{"app bytes", [2]uint64{app.NInBytes, app.NOutBytes}, [2]uint64{100, 200}},
		{"net out Interests", net.NOutInterests, uint64(1)},
		{"net in Data", net.NInData, uint64(1)},
		{"net mtu", net.Mtu.Unwrap(), uint64(1420)},
		{"net marking interval (ns)", net.BaseCongestionMarkInterval.Unwrap(), uint64(100 * time.Millisecond)},
		{"net threshold", net.DefaultCongestionThreshold.Unwrap(), uint64(65536)},
		{"internal uri", internal.Uri, "internal://"},
		{"internal id", internal.FaceId, uint64(h.m.FaceID())},
		{"internal out Interests", internal.NOutInterests, uint64(1)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	ext := extensionFields(t, content)
	if got := ext[uint64(h.net.ID)]; got != [3]uint64{7, 3, 12} {
		t.Errorf("net marked, dropped, queue length = %v, want [7 3 12]", got)
	}
	if d := segs[0]; !d.HasFinal || d.Freshness != datasetFreshness || !d.Name[len(d.Name)-2].IsVersion() {
		t.Errorf("segment %s: final %t, freshness %v", d.Name, d.HasFinal, d.Freshness)
	}
}

// extensionFields reads ndncc's fields of each FaceStatus: FaceId ->
// NCongestionMarked, NQueueDrops, QueueLength.
func extensionFields(t *testing.T, content []byte) map[uint64][3]uint64 {
	t.Helper()
	out := map[uint64][3]uint64{}
	r := enc.NewBufferView(content)
	for !r.IsEOF() {
		typ, _ := r.ReadTLNum()
		l, _ := r.ReadTLNum()
		v, err := r.ReadBuf(int(l))
		if err != nil || typ != 0x80 {
			t.Fatalf("FaceStatus TLV %#x: %v", typ, err)
		}
		var id uint64
		var x [3]uint64
		fr := enc.NewBufferView(v)
		for !fr.IsEOF() {
			ft, _ := fr.ReadTLNum()
			fl, _ := fr.ReadTLNum()
			fv, err := fr.ReadBuf(int(fl))
			if err != nil {
				t.Fatal(err)
			}
			n, _, _ := enc.ParseNat(fv)
			switch ft {
			case 0x69:
				id = uint64(n)
			case TLVNCongestionMarked:
				x[0] = uint64(n)
			case TLVNQueueDrops:
				x[1] = uint64(n)
			case TLVQueueLength:
				x[2] = uint64(n)
			}
		}
		out[id] = x
	}
	return out
}

// TestDatasets decodes the other datasets with ndnd's decoders.
func TestDatasets(t *testing.T) {
	h := newHarness(t)
	h.m.Register(name(t, "/a"), Route{Face: h.net.ID, Origin: 255, Cost: 7, Flags: 1}, 0)
	h.m.Register(name(t, "/a"), Route{Face: h.app.ID, Cost: 2}, 10*time.Second)
	if err := h.fwd.SetStrategy(name(t, "/a"), fw.StrategyPCON); err != nil {
		t.Fatal(err)
	}
	if err := h.fwd.SetCSConfig(fw.CSConfig{Capacity: 42, Admit: true}); err != nil {
		t.Fatal(err)
	}
	h.s.AdvanceTo(4 * time.Second)

	t.Run("fib/list", func(t *testing.T) {
		content, _ := h.fetchDataset(h.app, "fib", "list")
		st, err := nfd.ParseFibStatus(enc.NewBufferView(content), false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range st.Entries {
			s := e.Name.String()
			for _, nh := range e.NextHopRecords {
				s += fmt.Sprintf(" %d/%d", nh.FaceId, nh.Cost)
			}
			got = append(got, s)
		}
		want := []string{"/a 1/2 2/7", "/localhop/nfd 3/0", "/localhop/nfd/rib 3/0", "/localhost/nfd 3/0", "/localhost/nfd/rib 3/0"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("fib/list %q, want %q", got, want)
		}
	})
	t.Run("rib/list", func(t *testing.T) {
		content, _ := h.fetchDataset(h.app, "rib", "list")
		st, err := nfd.ParseRibStatus(enc.NewBufferView(content), false)
		if err != nil {
			t.Fatal(err)
		}
		// /a, then the manager's /localhop/nfd/rib and /localhost/nfd/rib
		if len(st.Entries) != 3 || len(st.Entries[0].Routes) != 2 ||
			!st.Entries[2].Name.Equal(name(t, "/localhost/nfd/rib")) || st.Entries[2].Routes[0].FaceId != uint64(h.m.FaceID()) {
			t.Fatalf("rib/list %+v", st.Entries)
		}
		app, net := st.Entries[0].Routes[0], st.Entries[0].Routes[1]
		if app.FaceId != 1 || app.ExpirationPeriod.Unwrap() != 6000 || net.Origin != 255 || net.Cost != 7 || net.ExpirationPeriod.IsSet() {
			t.Errorf("routes %+v %+v", app, net)
		}
	})
	t.Run("strategy-choice/list", func(t *testing.T) {
		content, _ := h.fetchDataset(h.app, "strategy-choice", "list")
		st, err := nfd.ParseStrategyChoiceMsg(enc.NewBufferView(content), false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range st.StrategyChoices {
			got = append(got, c.Name.String()+"="+c.Strategy.Name.String())
		}
		want := []string{"/=/localhost/nfd/strategy/best-route/v=5", "/a=/localhost/nfd/strategy/pcon/v=1",
			"/ndn/broadcast=/localhost/nfd/strategy/multicast/v=5", // NFD's default choices
			"/localhost=/localhost/nfd/strategy/multicast/v=5", "/localhost/nfd=/localhost/nfd/strategy/best-route/v=5"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("strategy-choice/list %q, want %q", got, want)
		}
	})
	t.Run("status/general", func(t *testing.T) {
		content, _ := h.fetchDataset(h.app, "status", "general")
		st, err := nfd.ParseGeneralStatus(enc.NewBufferView(content), false)
		if err != nil {
			t.Fatal(err)
		}
		if st.NfdVersion != DefaultVersion || st.StartTimestamp != 0 || st.CurrentTimestamp != 4*time.Second ||
			st.NFibEntries != 5 || st.NInInterests == 0 {
			t.Errorf("status/general %+v", st)
		}
	})
	t.Run("faces/channels", func(t *testing.T) {
		content, _ := h.fetchDataset(h.app, "faces", "channels")
		var got []string
		for r := enc.NewBufferView(content); !r.IsEOF(); {
			typ, _ := r.ReadTLNum()
			l, _ := r.ReadTLNum()
			inner := r.Delegate(int(l))
			if typ != tlvChannelStatus {
				t.Fatalf("element %#x, want ChannelStatus", typ)
			}
			a, err := nfd.ParseControlArgs(inner, false) // LocalUri has the same type
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, a.LocalUri.Unwrap())
		}
		if want := (&fakeFaces{}).Channels(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("faces/channels %q, want %q", got, want)
		}
	})
	for _, tt := range []struct {
		name   string
		filter *nfd.FaceQueryFilterValue
		want   []uint64
	}{
		{"FaceId", &nfd.FaceQueryFilterValue{FaceId: some(uint64(h.net.ID))}, []uint64{uint64(h.net.ID)}},
		{"no such FaceId", &nfd.FaceQueryFilterValue{FaceId: some(uint64(99))}, nil},
		{"UriScheme of the local URI", &nfd.FaceQueryFilterValue{UriScheme: some("unix")}, []uint64{uint64(h.app.ID)}},
		{"scope and persistency", &nfd.FaceQueryFilterValue{FaceScope: some(uint64(nfd.FaceScopeNonLocal)),
			FacePersistency: some(uint64(nfd.FacePersPersistent))}, []uint64{uint64(h.net.ID)}},
		{"remote URI", &nfd.FaceQueryFilterValue{Uri: some("udp4://192.0.2.9:6363")}, []uint64{uint64(h.net.ID)}},
		{"empty filter", &nfd.FaceQueryFilterValue{}, []uint64{uint64(h.app.ID), uint64(h.net.ID), uint64(h.m.FaceID())}},
	} {
		t.Run("faces/query "+tt.name, func(t *testing.T) {
			filter := enc.NewGenericBytesComponent((&nfd.FaceQueryFilter{Val: tt.filter}).Encode().Join())
			content, _ := h.fetchDataset(h.app, "faces", "query", filter)
			var got []uint64
			for r := enc.NewBufferView(content); !r.IsEOF(); {
				_, _ = r.ReadTLNum()
				l, _ := r.ReadTLNum()
				st, err := nfd.ParseFaceStatus(r.Delegate(int(l)), true)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, st.FaceId)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("faces %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("faces/query with a malformed filter", func(t *testing.T) {
		for _, n := range []string{"/localhost/nfd/faces/query", "/localhost/nfd/faces/query/%01%02"} {
			h.nonce++
			got := h.send(h.app, &ndn.Interest{Name: name(t, n), Nonce: h.nonce, CanBePrefix: true, MustBeFresh: true})
			if len(got) != 1 || got[0].Data == nil {
				t.Fatalf("%s: %d packets back", n, len(got))
			}
			if r := controlResponse(t, got[0].Data); r.StatusCode != 400 || r.StatusText != "Malformed filter" {
				t.Errorf("%s: %d %q, want 400 Malformed filter", n, r.StatusCode, r.StatusText)
			}
		}
	})
	t.Run("cs/info", func(t *testing.T) {
		before := h.fwd.Counters()
		content, _ := h.fetchDataset(h.app, "cs", "info")
		msg, err := nfd.ParseCsInfoMsg(enc.NewBufferView(content), false)
		if err != nil {
			t.Fatal(err)
		}
		ci := msg.CsInfo
		if ci == nil || ci.Capacity != 42 || ci.Flags != nfd.CsEnableAdmit || ci.NCsEntries != uint64(before.CSSize) ||
			ci.NCsEntries == 0 || ci.NHits != before.CSHits || ci.NMisses != before.CSMisses {
			t.Errorf("cs/info %+v (forwarder before %+v)", ci, before)
		}
	})
	t.Run("from a network face", func(t *testing.T) {
		// under /localhost: dropped by the forwarder's scope control
		if got := h.send(h.net, &ndn.Interest{Name: name(t, "/localhost/nfd/fib/list"), Nonce: 77, CanBePrefix: true}); len(got) != 0 {
			t.Errorf("a /localhost dataset request from a network face got %v, want nothing", got)
		}
		// under /localhop: refused by the manager
		got := h.send(h.net, &ndn.Interest{Name: name(t, "/localhop/nfd/rib/list"), Nonce: 78, CanBePrefix: true})
		if len(got) != 1 || controlResponse(t, got[0].Data).StatusCode != 403 {
			t.Errorf("a /localhop dataset request from a network face got %v, want 403", got)
		}
	})
}

// TestSegmentedDataset: a FIB too large for one segment is published in
// several, each fetched by name, the versions increasing.
func TestSegmentedDataset(t *testing.T) {
	h := newHarness(t)
	for i := range 300 {
		h.fwd.AddRoute(name(t, fmt.Sprintf("/a/rather/long/prefix/to/fill/segments/%04d", i)), h.net.ID, uint64(i))
	}
	content, segs := h.fetchDataset(h.app, "fib", "list")
	if len(segs) < 3 {
		t.Fatalf("%d segments for %d bytes", len(segs), len(content))
	}
	for i, s := range segs {
		if len(s.Content) > SegmentSize || (i < len(segs)-1 && len(s.Content) != SegmentSize) || !s.FinalBlockID.Equal(segs[len(segs)-1].Name[len(s.Name)-1]) {
			t.Errorf("segment %d: %d bytes, FinalBlockId %s", i, len(s.Content), s.FinalBlockID)
		}
	}
	st, err := nfd.ParseFibStatus(enc.NewBufferView(content), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Entries) != 304 { // and the manager's four
		t.Errorf("%d FIB entries, want 304", len(st.Entries))
	}
	v1 := segs[0].Name[len(segs[0].Name)-2].NumberVal()
	h.s.AdvanceTo(h.s.Now() + 2*datasetFreshness) // the Content Store's copy is stale
	_, again := h.fetchDataset(h.app, "fib", "list")
	if v2 := again[0].Name[len(again[0].Name)-2].NumberVal(); v2 <= v1 {
		t.Errorf("second version %d, first %d", v2, v1)
	}
	// The first version's segments are still served by name.
	h.nonce++
	if got := h.send(h.app, &ndn.Interest{Name: segs[1].Name, Nonce: h.nonce}); len(got) != 1 || got[0].Data != segs[1] {
		t.Errorf("old segment 1: %v", got)
	}
	// Only KeptDatasets are kept.
	for range KeptDatasets {
		h.s.AdvanceTo(h.s.Now() + 2*datasetFreshness)
		h.fetchDataset(h.app, "cs", "info")
	}
	h.nonce++
	dropped := h.m.Stats().Dropped
	// MustBeFresh: the forwarder's cached copy is stale, the manager must answer.
	if got := h.send(h.app, &ndn.Interest{Name: segs[1].Name, Nonce: h.nonce, MustBeFresh: true}); len(got) != 0 || h.m.Stats().Dropped != dropped+1 {
		t.Errorf("a segment of a forgotten dataset was served")
	}
}

func TestDatasetVersionsFollowEpoch(t *testing.T) {
	h := newHarness(t)
	epoch := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	m, err := New(Config{Forwarder: h.fwd, Scheduler: h.s, Faces: h.faces, Epoch: epoch})
	if err != nil {
		t.Fatal(err)
	}
	h.s.AdvanceTo(1500 * time.Millisecond)
	want := uint64(epoch.UnixMicro()) + 1500000
	if v := m.nextVersion(); v != want {
		t.Errorf("version %d, want %d", v, want)
	}
	if v := m.nextVersion(); v != want+1 {
		t.Errorf("a second version at the same time %d, want %d", v, want+1)
	}
}
