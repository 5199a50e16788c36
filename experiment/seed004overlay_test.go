package experiment

import "testing"

// TestSeed004Overlay is issue 13's check of the IP-overlay evaluation:
// PCON has no timeouts; Shaper_Overlay overloads the hidden bottleneck
// (drops, timeouts and a standing queue) while Shaper_Ideal does not.
func TestSeed004Overlay(t *testing.T) {
	e := seed004Overlay()
	rep, err := e.Run(Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*VariantResult{}
	for i := range rep.Variants {
		got[rep.Variants[i].Name] = &rep.Variants[i]
	}
	ideal, over, pcon := got["shaper-ideal"], got["shaper-overlay"], got["pcon"]
	if ideal == nil || over == nil || pcon == nil {
		t.Fatalf("variants %v: want shaper-ideal, shaper-overlay and pcon", got)
	}
	if n := pcon.Flows[0].Timeouts; n != 0 {
		t.Errorf("pcon: %d timeouts, want none", n)
	}
	if d := pcon.Extra["underlay_drops"]; d == 0 {
		t.Error("pcon: no underlay drop: the hidden bottleneck was never reached")
	}
	if d, to := ideal.Extra["underlay_drops"], ideal.Flows[0].Timeouts; d != 0 || to != 0 {
		t.Errorf("shaper-ideal: %v underlay drops, %d timeouts; want none", d, to)
	}
	if d, to := over.Extra["underlay_drops"], over.Flows[0].Timeouts; d == 0 || to == 0 {
		t.Errorf("shaper-overlay: %v underlay drops, %d timeouts; want both", d, to)
	}
	if qi, qo := ideal.Extra["underlay_mean_queue"], over.Extra["underlay_mean_queue"]; qo < 4*qi || qo < 20 {
		t.Errorf("underlay mean queue: shaper-overlay %.1f, shaper-ideal %.1f packets; want a standing queue only with shaper-overlay", qo, qi)
	}
}

// TestSeed004MultipathEqualPCON checks that PCON spreads one flow over two
// equal paths: it uses more capacity than one path has (half of the two).
// How close it comes to the optimum in a 20 MiB transfer is a result
// (docs/reproduction.md), not checked here.
func TestSeed004MultipathEqualPCON(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20 MiB transfer")
	}
	rep, err := seed004Multipath().Run(Options{Runs: 1, Variants: []string{"equal-pcon"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Variants[0].Extra["capacity_fraction"]; f <= 0.6 {
		t.Errorf("equal-pcon: capacity fraction %.3f, want above 0.6 (one path is 0.5)", f)
	}
}
