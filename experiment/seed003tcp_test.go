package experiment

import "testing"

// Issue 6, "Done when": TCP Reno alone on the linear topology gets at
// least 90% of the bottleneck; on the dumbbell against seed 000's Design
// #3, the NDN flow and the TCP flow each get 35–65% of it.
func TestSeed003TCP(t *testing.T) {
	v := runOnce(t, "seed003-tcp")
	for name, pipeline := range map[string]string{"tcp-reno-linear": "tcp-reno", "tcp-cubic-linear": "tcp-cubic"} {
		r, ok := v[name]
		if !ok || len(r.Flows) != 1 {
			t.Fatalf("variant %s missing or without one flow", name)
		}
		f, share := r.Flows[0], r.Extra["bottleneck_share"]
		t.Logf("%s: %.2f s, goodput %.0f kbps, throughput %.0f kbps, share %.3f", name, f.DownloadTimeS, f.GoodputKbps, f.ThroughputKbps, share)
		if f.Pipeline != pipeline {
			t.Errorf("%s: pipeline %q, want %q", name, f.Pipeline, pipeline)
		}
		if share < 0.90 || share > 1 {
			t.Errorf("%s: bottleneck share %.3f, want 0.90–1", name, share)
		}
		// The share is the flow's wire throughput over 5 Mbit/s.
		if want := f.ThroughputKbps / 5000; share < want-1e-4 || share > want+1e-4 {
			t.Errorf("%s: share %.4f, want throughput/5000 = %.4f", name, share, want)
		}
	}
	for _, name := range []string{"dumbbell-ndn-vs-tcp", "dumbbell-ndn-vs-tcp-cubic"} {
		r, ok := v[name]
		if !ok || len(r.Flows) != 2 || r.Flows[0].ID != "ndn" || r.Flows[1].ID != "tcp" {
			t.Fatalf("variant %s missing or without flows ndn and tcp", name)
		}
		ndn, tcp := r.Extra["ndn_share"], r.Extra["tcp_share"]
		t.Logf("%s: NDN %.3f, TCP %.3f of the bottleneck over %.1f s", name, ndn, tcp, r.Extra["overlap_s"])
		if ndn+tcp > 1.0001 || ndn+tcp < 0.9 {
			t.Errorf("%s: shares %.3f + %.3f, want a full link (0.9–1)", name, ndn, tcp)
		}
		if name != "dumbbell-ndn-vs-tcp" {
			continue
		}
		for flow, s := range map[string]float64{"NDN": ndn, "TCP": tcp} {
			if s < 0.35 || s > 0.65 {
				t.Errorf("%s: %s share %.3f, want 0.35–0.65", name, flow, s)
			}
		}
	}
	ctl, ok := v["dumbbell-tcp-vs-tcp"]
	if !ok || len(ctl.Flows) != 2 {
		t.Fatal("variant dumbbell-tcp-vs-tcp missing or without two flows")
	}
	if sum := ctl.Extra["tcp1_share"] + ctl.Extra["tcp_share"]; sum > 1.0001 || sum < 0.9 {
		t.Errorf("dumbbell-tcp-vs-tcp: shares sum to %.3f, want a full link (0.9–1)", sum)
	}
}
