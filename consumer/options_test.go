package consumer

import (
	"errors"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
)

func TestParseParamsRejects(t *testing.T) {
	tests := []struct {
		params map[string]string
		param  string // the parameter the error must name
	}{
		{map[string]string{"retries": "-2"}, "retries"},
		{map[string]string{"span-windows": "1"}, "span-windows"},
		{map[string]string{"lifetime": "0s"}, "lifetime"},
		{map[string]string{"rto-check-interval": "0s"}, "rto-check-interval"},
		{map[string]string{"hole-threshold": "-1"}, "hole-threshold"},
		{map[string]string{"rtt-sampling": "sometimes"}, "rtt-sampling"},
	}
	for _, tt := range tests {
		_, err := ParseParams("aimd", tt.params)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Key != tt.param {
			t.Errorf("ParseParams(aimd, %v) = %v, want a ParamError for %s", tt.params, err, tt.param)
		}
	}
	for _, ok := range []map[string]string{{"retries": "-1"}, {"span-windows": "2"}, {"rtt-sampling": "once-per-rtt"}} {
		if _, err := ParseParams("aimd", ok); err != nil {
			t.Errorf("ParseParams(aimd, %v): %v", ok, err)
		}
	}
}

// TestPacedVarFloor: every pipeline that paces its Interests (its
// algorithm is a cc.Paced) gets the RTO variance floor by default; the
// others none.
func TestPacedVarFloor(t *testing.T) {
	for _, p := range cc.Pipelines() {
		want := time.Duration(0)
		if p == "paced-delay" || p == "bbr" || p == "copa" {
			want = PacedVarFloor
		}
		if got := DefaultOptions(p).RTT.VarFloor; got != want {
			t.Errorf("%s: rto-var-floor %v, want %v", p, got, want)
		}
	}
}
