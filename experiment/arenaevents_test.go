package experiment

import (
	"slices"
	"testing"
	"time"
)

func TestPhasedWireTime(t *testing.T) {
	tests := []struct {
		name   string
		size   int64
		phases []ratePhase
		want   time.Duration
	}{
		{"one rate is wireTime", 10 * MiB, []ratePhase{{0, 10e6}}, wireTime(10*MiB, 10e6)},
		// 10240 Data of 1449 bytes: 118.70208 Mbit; 30 by 3 s, 25 more by
		// 8 s, the other 63.70208 at 10 Mbit/s.
		{"halves then doubles", 10 * MiB, []ratePhase{{0, 10e6}, {3 * time.Second, 5e6}, {8 * time.Second, 10e6}}, 14370208 * time.Microsecond},
		{"done before the change", MiB, []ratePhase{{0, 10e6}, {3 * time.Second, 5e6}}, wireTime(MiB, 10e6)},
		// 118.70208 Mbit less 30 at 5 Mbit/s.
		{"ends in the last phase", 10 * MiB, []ratePhase{{0, 10e6}, {3 * time.Second, 5e6}}, 3*time.Second + 17740416*time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := phasedWireTime(tt.size, tt.phases); (got - tt.want).Abs() > time.Microsecond {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestEventArenas runs the arenas whose links change mid-transfer with
// a fixed window and checks that the change took effect: the transfer
// takes longer than it would at the first rate and RTT, and the RTT the
// flow saw grew where the path switched.
func TestEventArenas(t *testing.T) {
	for _, tt := range []struct {
		arena        string
		unchanged    time.Duration // the transfer at the first rate and path
		wantRTTMaxMs float64
	}{
		{"rate-halves-doubles", wireTime(10*MiB, 10e6) + 50*time.Millisecond, 0},
		{"path-switch-near-to-far", wireTime(10*MiB, 10e6) + 22*time.Millisecond, 102},
	} {
		t.Run(tt.arena, func(t *testing.T) {
			i := slices.Index(Arenas(), tt.arena)
			if i < 0 {
				t.Fatalf("no arena %s", tt.arena)
			}
			a := arenas()[i]
			_, res, err := runArenaWith(a, "fixed", map[string]string{"window": "100"})
			if err != nil {
				t.Fatal(err)
			}
			f := res.Flows[0]
			if !f.Complete || f.DownloadTimeS <= tt.unchanged.Seconds() {
				t.Errorf("complete %v after %.2f s, want more than %v (no change)", f.Complete, f.DownloadTimeS, tt.unchanged)
			}
			if f.RTTMaxMs < tt.wantRTTMaxMs {
				t.Errorf("max RTT %.1f ms, want at least %v", f.RTTMaxMs, tt.wantRTTMaxMs)
			}
		})
	}
}
