package emu

import (
	"errors"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/experiment"
)

// TestCatchunksArgs checks the mapping of the seed experiments' consumers
// to ndncatchunks' options, and the refusals.
func TestCatchunksArgs(t *testing.T) {
	tests := []struct {
		experiment, variant string
		want                string // the command line, "" when refused
		refused             string // in the refusal
	}{
		{"seed000-linear", "design0", "-p fixed -s 32 -r 15 -l 4000 /example/file", ""},
		{"seed000-linear", "design1", "-p aimd --init-cwnd 1 --init-ssthresh 200 --aimd-step 1 --aimd-beta 0.5 --disable-cwa --rto-alpha 0.125 --rto-beta 0.25 --rto-k 4 --min-rto 200 --max-rto 10000 -r 15 -l 4000 /example/file", ""},
		{"seed000-linear", "design2", "-p aimd --init-cwnd 1 --init-ssthresh 200 --aimd-step 1 --aimd-beta 0.5 --rto-alpha 0.125 --rto-beta 0.25 --rto-k 4 --min-rto 200 --max-rto 10000 -r 15 -l 4000 /example/file", ""},
		{"seed000-linear", "design3", "", "rtt-sampling = once-per-rtt"},
		{"seed003-aimd", "aimd-hole", "", "hole-detection"},
		{"seed001-vegas", "vegas-a5-b10-rtt200ms", "", "pipeline vegas"},
	}
	for _, tt := range tests {
		t.Run(tt.experiment+"/"+tt.variant, func(t *testing.T) {
			e, err := experiment.Lookup(tt.experiment)
			if err != nil {
				t.Fatal(err)
			}
			v, ok := e.Variant(tt.variant)
			if !ok {
				t.Fatalf("no variant %s (have %v)", tt.variant, e.Variants)
			}
			sc, err := e.Scenario(v)
			if err != nil {
				t.Fatal(err)
			}
			mapped, mapping, err := CatchunksConsumers(sc)
			if tt.want == "" {
				if !errors.Is(err, ErrNotMappable) || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("err %v, want ErrNotMappable naming %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c := mapped.Consumers[0]
			if got := strings.Join(c.Args, " "); c.Program != Catchunks || got != tt.want {
				t.Errorf("%s %s, want %s %s", c.Program, got, Catchunks, tt.want)
			}
			if len(mapping[c.ID].Unmapped) == 0 {
				t.Errorf("no unmapped parameter listed")
			}
			if sc.Consumers[0].Program != "" {
				t.Errorf("the experiment's scenario was changed")
			}
		})
	}
}
