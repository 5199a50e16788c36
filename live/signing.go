package live

import (
	"crypto/elliptic"
	"fmt"
	"os"
	"time"

	ndnd "github.com/named-data/ndnd/std/ndn"
	"github.com/named-data/ndnd/std/security"
	"github.com/named-data/ndnd/std/security/signer"

	"github.com/ndncc/ndncc/ndn"
)

// Signature schemes a server signs its Data with.
const (
	SignDigest  = "digest"  // DigestSha256 (integrity only); the default
	SignEd25519 = "ed25519" // Ed25519
	SignECDSA   = "ecdsa"   // ECDSA with P-256 and SHA-256
	SignRSA     = "rsa"     // RSA (2048-bit key) with SHA-256, as the seeds' producers signed
)

// rsaKeyBits is the size of a generated RSA key.
const rsaKeyBits = 2048

// Signing is how a server signs: the signer, and the certificate of its
// key (nil for DigestSha256), which the server also serves so that
// consumers can verify.
type Signing struct {
	Signer ndnd.Signer
	Cert   *ndn.Data
}

// certValidity is the validity period of a self-signed certificate made
// for a generated or certificate-less key.
const certValidity = 365 * 24 * time.Hour

// LoadSigning prepares the signing of a server. scheme is SignDigest,
// SignEd25519 or SignECDSA ("" means SignDigest, or the key's scheme when
// keyFile is given). keyFile, if not empty, is a secret key as `ndnd sec
// keygen` writes it (PEM or TLV), optionally with its certificate;
// otherwise a key named identity/KEY/<random> is generated. A key without
// a certificate gets a self-signed one.
func LoadSigning(scheme, keyFile string, identity ndn.Name) (Signing, error) {
	if keyFile == "" && (scheme == "" || scheme == SignDigest) {
		return Signing{Signer: signer.NewSha256Signer()}, nil
	}
	var (
		key   ndnd.Signer
		certs [][]byte
		err   error
	)
	if keyFile != "" {
		if key, certs, err = readKeyFile(keyFile); err != nil {
			return Signing{}, err
		}
		if scheme != "" && schemeOf(key.Type()) != scheme {
			return Signing{}, fmt.Errorf("key %s in %s is %s, not %s", key.KeyName(), keyFile, schemeOf(key.Type()), scheme)
		}
	} else if key, err = generate(scheme, security.MakeKeyName(identity)); err != nil {
		return Signing{}, err
	}
	cert, err := certificateFor(key, certs)
	if err != nil {
		return Signing{}, err
	}
	return Signing{Signer: key, Cert: cert}, nil
}

// GenerateSigning prepares the signing of a server with a new key of
// scheme named keyName (a key name: IDENTITY/KEY/ID) and its self-signed
// certificate; SignDigest needs no key.
func GenerateSigning(scheme string, keyName ndn.Name) (Signing, error) {
	if scheme == "" || scheme == SignDigest {
		return Signing{Signer: signer.NewSha256Signer()}, nil
	}
	key, err := generate(scheme, keyName)
	if err != nil {
		return Signing{}, err
	}
	cert, err := certificateFor(key, nil)
	if err != nil {
		return Signing{}, err
	}
	return Signing{Signer: key, Cert: cert}, nil
}

// generate makes a key of scheme named keyName.
func generate(scheme string, keyName ndn.Name) (ndnd.Signer, error) {
	var (
		key ndnd.Signer
		err error
	)
	switch scheme {
	case SignEd25519:
		key, err = signer.KeygenEd25519(keyName)
	case SignECDSA:
		key, err = signer.KeygenEcc(keyName, elliptic.P256())
	case SignRSA:
		key, err = signer.KeygenRsa(keyName, rsaKeyBits)
	default:
		return nil, fmt.Errorf("signature scheme %q: want %s, %s, %s or %s", scheme, SignDigest, SignEd25519, SignECDSA, SignRSA)
	}
	if err != nil {
		return nil, fmt.Errorf("generate %s key: %w", scheme, err)
	}
	return key, nil
}

// readKeyFile reads the first secret key of a key file and its
// certificates.
func readKeyFile(path string) (ndnd.Signer, [][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read key: %w", err)
	}
	signers, certs, err := security.DecodeFile(b)
	if err != nil {
		return nil, nil, fmt.Errorf("key file %s: %w", path, err)
	}
	if len(signers) == 0 {
		return nil, nil, fmt.Errorf("key file %s holds no secret key", path)
	}
	return signers[0], certs, nil
}

// certificateFor returns the certificate of key among certs, or a new
// self-signed one.
func certificateFor(key ndnd.Signer, certs [][]byte) (*ndn.Data, error) {
	for _, c := range certs {
		d, err := decodeData(c)
		if err != nil {
			continue
		}
		if kn, err := security.GetKeyNameFromCertName(d.Name); err == nil && kn.Equal(key.KeyName()) {
			return d, nil
		}
	}
	now := time.Now()
	w, err := security.SelfSign(security.SignCertArgs{
		Signer:    key,
		NotBefore: now.Add(-time.Hour),
		NotAfter:  now.Add(certValidity),
	})
	if err != nil {
		return nil, fmt.Errorf("self-sign certificate of %s: %w", key.KeyName(), err)
	}
	return decodeData(w.Join())
}

// decodeData decodes an encoded Data packet.
func decodeData(b []byte) (*ndn.Data, error) {
	p, err := ndn.DecodeFrame(b)
	if err != nil {
		return nil, err
	}
	if p.Data == nil {
		return nil, fmt.Errorf("not a Data packet")
	}
	return p.Data, nil
}

// schemeOf names a signature type as LoadSigning's scheme does.
func schemeOf(t ndnd.SigType) string {
	switch t {
	case ndnd.SignatureDigestSha256:
		return SignDigest
	case ndnd.SignatureEd25519:
		return SignEd25519
	case ndnd.SignatureSha256WithEcdsa:
		return SignECDSA
	case ndnd.SignatureSha256WithRsa:
		return SignRSA
	}
	return fmt.Sprintf("signature type %d", t)
}

// keyNameOf returns the key name a KeyLocator designates: the name itself
// for a key name, the key part of a certificate name.
func keyNameOf(locator ndn.Name) ndn.Name {
	if kn, err := security.GetKeyNameFromCertName(locator); err == nil {
		return kn
	}
	return locator
}

// nameKey is a comparable form of a name for maps.
func nameKey(n ndn.Name) string { return string(n.Bytes()) }
