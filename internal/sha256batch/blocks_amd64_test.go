package sha256batch

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestVectorMatchesCPUInfo: the lanes run exactly where Linux reports
// AVX-512 F, VL and BW and no SHA extensions.
func TestVectorMatchesCPUInfo(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	var flags []string
	for line := range strings.Lines(string(b)) {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	has := func(f string) bool { return slices.Contains(flags, f) }
	if got, want := hasSHA(), has("sha_ni"); got != want {
		t.Errorf("hasSHA() = %v, /proc/cpuinfo says sha_ni: %v", got, want)
	}
	want := has("avx512f") && has("avx512vl") && has("avx512bw") && !has("sha_ni")
	if vector != want {
		t.Errorf("vector = %v, want %v from the flags %v", vector, want, flags)
	}
}
