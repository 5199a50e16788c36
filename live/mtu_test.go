package live

import "testing"

func TestCheckMTU(t *testing.T) {
	tests := []struct {
		mtu int
		ok  bool
	}{
		{-1, false}, {0, false}, {10, false}, {575, false},
		{MinUDPMTU, true}, {DefaultUDPMTU, true}, {MaxUDPMTU, true},
		{MaxUDPMTU + 1, false},
	}
	for _, tt := range tests {
		if err := CheckMTU(tt.mtu); (err == nil) != tt.ok {
			t.Errorf("CheckMTU(%d) = %v, want ok %v", tt.mtu, err, tt.ok)
		}
	}
}
