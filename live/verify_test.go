package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/ndn"
)

// signedWith encodes a Data named name with signing's signer (a
// DigestSha256 when it is nil) and decodes it as it would arrive.
func signedWith(t *testing.T, name string, content string, s Signing) *ndn.Data {
	t.Helper()
	d := &ndn.Data{Name: ndntest.Name(t, name), Content: []byte(content)}
	if _, err := ndn.EncodeData(d, s.Signer); err != nil {
		t.Fatal(err)
	}
	got, err := decodeData(d.Wire)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// verify checks d with v, fetching the certificate from certs when asked.
func verify(t *testing.T, v *Verifier, d *ndn.Data, certs ...*ndn.Data) error {
	t.Helper()
	need, err := v.Check(d)
	if err != nil || need == nil {
		return err
	}
	for _, c := range certs {
		if keyNameOf(c.Name).Equal(keyNameOf(need)) {
			if err := v.AddCert(c); err != nil {
				t.Fatal(err)
			}
			return verify(t, v, d)
		}
	}
	t.Fatalf("%s needs the certificate of %s", d.Name, need)
	return nil
}

func TestVerifierPinsTheFirstSigner(t *testing.T) {
	ed, err := LoadSigning(SignEd25519, "", ndntest.Name(t, "/obj"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := LoadSigning(SignEd25519, "", ndntest.Name(t, "/obj"))
	if err != nil {
		t.Fatal(err)
	}
	digest := Signing{}
	tests := []struct {
		name          string
		first, second Signing
		want          string // "" for success
	}{
		{"same key", ed, ed, ""},
		{"digests", digest, digest, ""},
		// A proxy replaced a segment with a re-digested one: the digest
		// verifies, but the object is signed by a key.
		{"downgrade to a digest", ed, digest, "is signed with a DigestSha256 only, but this object's signer is " + keyNameOf(ed.Cert.Name).String()},
		{"another key", ed, other, "but this object's signer is " + keyNameOf(ed.Cert.Name).String()},
		{"upgrade from a digest", digest, ed, "but this object's signer is a DigestSha256 only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewVerifier()
			certs := []*ndn.Data{ed.Cert, other.Cert}
			if err := verify(t, v, signedWith(t, "/obj/v=1/seg=0", "first", tt.first), certs...); err != nil {
				t.Fatalf("first segment: %v", err)
			}
			err := verify(t, v, signedWith(t, "/obj/v=1/seg=1", "second", tt.second), certs...)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("second segment: %v", err)
			case tt.want != "" && (!errors.Is(err, ErrIntegrity) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("second segment: got %v, want ErrIntegrity saying %q", err, tt.want)
			}
		})
	}
}

func TestVerifierMismatchSaysWhy(t *testing.T) {
	// A signature that does not match its Data used to end with
	// "does not verify: <nil>" (ndnd's validator gives no error for it).
	ed, err := LoadSigning(SignEd25519, "", ndntest.Name(t, "/obj"))
	if err != nil {
		t.Fatal(err)
	}
	d := signedWith(t, "/obj/v=1/seg=0", "content", ed)
	w := append([]byte(nil), d.Wire...)
	i := strings.Index(string(w), "content")
	w[i] ^= 1
	bad, err := decodeData(w)
	if err != nil {
		t.Fatal(err)
	}
	err = verify(t, NewVerifier(), bad, ed.Cert)
	if !errors.Is(err, ErrIntegrity) || strings.Contains(err.Error(), "<nil>") || !strings.Contains(err.Error(), "does not match the signed content") {
		t.Errorf("got %v, want ErrIntegrity saying the signature does not match", err)
	}
}

// TestVerifierPinOutlivesTheFirstData: the fetch hands each Data's
// buffers back to a pool once written, so the pinned signer must not
// point into them. (An RSA-signed object failed at its 264th segment
// when the first Data's buffer was reused.)
func TestVerifierPinOutlivesTheFirstData(t *testing.T) {
	for _, scheme := range []string{SignEd25519, SignRSA} {
		t.Run(scheme, func(t *testing.T) {
			s, err := LoadSigning(scheme, "", ndntest.Name(t, "/obj"))
			if err != nil {
				t.Fatal(err)
			}
			v := NewVerifier()
			first := signedWith(t, "/obj/v=1/seg=0", "first", s)
			if err := verify(t, v, first, s.Cert); err != nil {
				t.Fatal(err)
			}
			for i := range first.Wire {
				first.Wire[i] = 0 // the pool gives the buffer to another packet
			}
			for _, c := range first.Sig.KeyLocator {
				clear(c.Val)
			}
			if err := verify(t, v, signedWith(t, "/obj/v=1/seg=1", "second", s), s.Cert); err != nil {
				t.Errorf("second segment: %v", err)
			}
		})
	}
}

// TestVerifierAuthentication checks what each trust accepts and how the
// summary describes the object: only a trusted certificate authenticates
// it; digests, a certificate the network served and --trust any are said
// to be not authenticated.
func TestVerifierAuthentication(t *testing.T) {
	ed, err := LoadSigning(SignEd25519, "", ndntest.Name(t, "/obj"))
	if err != nil {
		t.Fatal(err)
	}
	anchorFile := filepath.Join(t.TempDir(), "obj.cert")
	if err := os.WriteFile(anchorFile, ed.Cert.Wire, 0o644); err != nil {
		t.Fatal(err)
	}
	key := keyNameOf(ed.Cert.Name).String()
	tests := []struct {
		name          string
		trust         Trust
		signing       Signing
		certs         []*ndn.Data // served by the network
		authenticated bool
		summary       string
	}{
		{"integrity, digests", TrustIntegrity, Signing{}, nil, false, "digests only: not authenticated"},
		{"integrity, key", TrustIntegrity, ed, []*ndn.Data{ed.Cert}, false, "integrity only: Ed25519 by " + key + ", checked with the self-signed certificate the network served, not a trusted one: not authenticated"},
		{"anchor, key", TrustAnchor, ed, nil, true, "verified: Ed25519 by " + key + " (trusted certificate " + anchorFile + ")"},
		// No certificate served: --trust any does not ask for one.
		{"any, key", TrustAny, ed, nil, false, "not verified (--trust any): Ed25519 by " + key + " not checked: not authenticated"},
		{"any, digests", TrustAny, Signing{}, nil, false, "not verified (--trust any): digests only, not authenticated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewVerifier()
			if tt.trust == TrustAnchor {
				if err := v.LoadTrustAnchor(anchorFile); err != nil {
					t.Fatal(err)
				}
			} else if err := v.SetTrust(tt.trust); err != nil {
				t.Fatal(err)
			}
			for seg := range 3 {
				d := signedWith(t, fmt.Sprintf("/obj/v=1/seg=%d", seg), "content", tt.signing)
				if err := verify(t, v, d, tt.certs...); err != nil {
					t.Fatalf("segment %d: %v", seg, err)
				}
			}
			a := v.Authentication()
			if a.Authenticated != tt.authenticated || a.Summary != tt.summary {
				t.Errorf("authenticated %v, summary %q\nwant %v, %q", a.Authenticated, a.Summary, tt.authenticated, tt.summary)
			}
		})
	}
}
