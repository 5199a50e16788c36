// Package ndntest makes the NDN names, payloads and Data that the tests of
// the live runtime send: parsed names, deterministic pseudo-random bytes,
// digest-signed Data.
//
// It is a test helper: only _test.go files may import it.
package ndntest

import (
	"math/rand/v2"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// Name parses an NDN name URI or fails the test.
func Name(t testing.TB, s string) ndn.Name {
	t.Helper()
	n, err := ndn.ParseName(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// RandomBytes returns n pseudo-random bytes, the same for the same seed.
func RandomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		v := r.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	for i := n - n%8; i < n; i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Data returns a DigestSha256-signed, encoded Data named name with n
// pseudo-random payload bytes.
func Data(t testing.TB, name string, n int) *ndn.Data {
	t.Helper()
	d := &ndn.Data{Name: Name(t, name), Content: RandomBytes(n, uint64(n))}
	if _, err := ndn.EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	return d
}
