package face

import (
	"math/rand/v2"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// mustName parses a name or fails the test.
func mustName(t testing.TB, s string) ndn.Name {
	t.Helper()
	n, err := enc.NameFromStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// randomBytes returns n pseudo-random bytes drawn from seed.
func randomBytes(n int, seed uint64) []byte {
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24)})
	b := make([]byte, n)
	_, _ = r.Read(b)
	return b
}
