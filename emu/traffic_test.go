package emu

import (
	"context"
	"testing"

	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/scenario"
)

// TestZipfAcrossALinkOutage runs examples/zipf-cache-linkdown.toml cut to
// 6 s, the link r1-r2 down from 2 s to 4 s: both zipf consumers get Data
// throughout (from r1's cache during the outage), the down link drops what
// r1 sends it meanwhile, and is up again at the end.
func TestZipfAcrossALinkOutage(t *testing.T) {
	realtimetest.Require(t)
	sc, err := scenario.LoadFS(examples.FS, "zipf-cache-linkdown.toml")
	if err != nil {
		t.Fatal(err)
	}
	sc = withSets(t, sc, "duration=6s")
	sc.Events[0].At, sc.Events[1].At = 2e9, 4e9
	res, err := Run(context.Background(), sc, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Flows) != 2 {
		t.Fatalf("%d flows, want 2", len(res.Flows))
	}
	for _, f := range res.Flows {
		t.Logf("%s: %d Interests, %d Data, %d timeouts, mean delay %.1f ms", f.ID, f.Interests, f.Segments, f.Timeouts, f.DelayMeanMs)
		// 50 Interests a second for 6 s; timers run late on a busy machine
		if f.Pipeline != "zipf" || f.Interests < 200 || f.Segments < 100 || f.Timeouts == 0 || f.Error != "" {
			t.Errorf("flow %s: %+v: want a zipf flow with Interests, Data and timeouts during the outage", f.ID, f)
		}
	}
	var down uint64
	for _, l := range res.Links {
		if l.From == "r1" && l.To == "r2" {
			down = l.DownDrops
		}
	}
	if down == 0 {
		t.Errorf("r1->r2 dropped nothing while down")
	}
	if len(res.Caches) != 1 || res.Caches[0].Hits == 0 {
		t.Errorf("caches %+v: want r1's hits", res.Caches)
	}
}

func TestCheckRejectsEventsOnTunnels(t *testing.T) {
	sc := linear(t, "links.router1-router2.tunnel=tcp")
	sc.Events = []scenario.Event{{At: 1e9, Link: "router1-router2", Down: true}}
	errs := checkEvents(sc)
	if len(errs) != 1 {
		t.Fatalf("errors %v, want one for the tunnel's event", errs)
	}
}
