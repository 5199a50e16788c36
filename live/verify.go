package live

import (
	"errors"
	"fmt"
	"os"

	ndnd "github.com/named-data/ndnd/std/ndn"
	"github.com/named-data/ndnd/std/security"
	"github.com/named-data/ndnd/std/security/signer"

	"github.com/ndncc/ndncc/ndn"
)

// ErrIntegrity reports a Data whose digest or signature does not verify,
// or that carries none.
var ErrIntegrity = errors.New("integrity check failed")

// Verifier checks every received Data against its signature, with ndnd's
// validators: a DigestSha256 by recomputing the digest, an Ed25519, ECDSA
// or RSA signature with the certificate of the key its KeyLocator names.
//
// With a trust anchor (a pinned certificate), only Data signed by that key
// pass. Without one, a DigestSha256 proves integrity and a key signature is
// checked against the certificate the network returns for its KeyLocator,
// which must be a valid self-signed certificate: integrity, not
// authenticity.
//
// Either way the first Data checked pins the signer — a DigestSha256, or a
// signature type and key name — and every later Data must be signed the
// same way: one object has one signer, so a segment replaced by a
// re-digested one (a downgrade from a key signature) or signed by another
// key fails. Use one Verifier per object, on one goroutine.
type Verifier struct {
	anchor ndn.Name             // key name of the pinned certificate; nil: none
	certs  map[string]ndnd.Data // certificates by key name
	signer *signerID            // the signer of the first Data checked
}

// signerID is who signed a Data: the signature type and, but for a
// DigestSha256, the key name.
type signerID struct {
	typ ndn.SigType
	key ndn.Name
}

func (s signerID) String() string {
	if s.typ == ndn.SigDigestSHA256 {
		return "a DigestSha256 only"
	}
	return fmt.Sprintf("%s (signature type %d)", s.key, s.typ)
}

// pin pins the signer of d if none is pinned yet, else requires d to be
// signed by it.
func (v *Verifier) pin(d *ndn.Data) error {
	id := signerID{typ: d.Sig.Type}
	if id.typ != ndn.SigDigestSHA256 {
		id.key = keyNameOf(d.Sig.KeyLocator)
	}
	if v.signer == nil {
		// Cloned once per object: d's buffers go back to the pool once
		// written.
		v.signer = &signerID{typ: id.typ, key: id.key.Clone()}
		return nil
	}
	if id.typ != v.signer.typ || !id.key.Equal(v.signer.key) {
		return fmt.Errorf("%w: %s is signed with %s, but this object's signer is %s", ErrIntegrity, d.Name, id, v.signer)
	}
	return nil
}

// NewVerifier returns a verifier without a trust anchor.
func NewVerifier() *Verifier {
	return &Verifier{certs: map[string]ndnd.Data{}}
}

// LoadTrustAnchor pins the (first) certificate in a file (PEM or TLV, as
// ndnd's tools write them): from then on only Data signed by its key pass.
func (v *Verifier) LoadTrustAnchor(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read certificate: %w", err)
	}
	_, certs, err := security.DecodeFile(b)
	if err != nil {
		return fmt.Errorf("certificate file %s: %w", path, err)
	}
	if len(certs) == 0 {
		return fmt.Errorf("certificate file %s holds no certificate", path)
	}
	d, err := decodeData(certs[0])
	if err != nil {
		return fmt.Errorf("certificate file %s: %w", path, err)
	}
	kn, err := v.addCert(d)
	if err != nil {
		return fmt.Errorf("certificate file %s: %w", path, err)
	}
	v.anchor = kn
	return nil
}

// Check verifies d. It returns a non-nil key name, and no error, when d is
// signed by a key whose certificate the verifier does not have yet: fetch
// it (an Interest for that name with CanBePrefix), give it to AddCert, and
// check d again.
func (v *Verifier) Check(d *ndn.Data) (needKey ndn.Name, err error) {
	return v.check(d, digestUnchecked)
}

// check is Check with the digest already verified by a face's reader
// (digestOK or digestBad), or not (digestUnchecked).
func (v *Verifier) check(d *ndn.Data, digest digestCheck) (ndn.Name, error) {
	if d.Sig.Type == ndn.SigNone {
		return nil, fmt.Errorf("%w: %s carries no signature", ErrIntegrity, d.Name)
	}
	if d.Sig.Type != ndn.SigDigestSHA256 && len(d.Sig.KeyLocator) == 0 {
		return nil, fmt.Errorf("%w: %s is signed (type %d) without a KeyLocator", ErrIntegrity, d.Name, d.Sig.Type)
	}
	if err := v.pin(d); err != nil {
		return nil, err
	}
	switch d.Sig.Type {
	case ndn.SigDigestSHA256:
		if v.anchor != nil {
			return nil, fmt.Errorf("%w: %s carries only a digest, not a signature by %s", ErrIntegrity, d.Name, v.anchor)
		}
		switch digest {
		case digestOK:
			return nil, nil
		case digestBad:
			return nil, fmt.Errorf("%w: %s: %w", ErrIntegrity, d.Name, ndn.ErrBadSignature)
		}
		if err := ndn.VerifyDigest(d); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrIntegrity, err)
		}
		return nil, nil
	}
	kn := keyNameOf(d.Sig.KeyLocator)
	if v.anchor != nil && !v.anchor.Equal(kn) {
		return nil, fmt.Errorf("%w: %s is signed by %s, not by the trusted %s", ErrIntegrity, d.Name, kn, v.anchor)
	}
	cert, ok := v.certs[nameKey(kn)]
	if !ok {
		return d.Sig.KeyLocator, nil
	}
	data, covered, err := ndn.NdndData(d)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrIntegrity, err)
	}
	if ok, err := signer.ValidateData(data, covered, cert); !ok {
		return nil, fmt.Errorf("%w: %s: %w", ErrIntegrity, d.Name, notVerified("signature by "+kn.String(), err))
	}
	return nil, nil
}

// notVerified describes a signature that did not verify: ndnd's validator
// gives a reason only when it could not check at all (nil for a mismatch).
func notVerified(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s cannot be verified: %w", what, err)
	}
	return fmt.Errorf("%s does not match the signed content", what)
}

// AddCert accepts a certificate fetched for a key Check asked for: it must
// be a valid, unexpired, self-signed certificate (or the trust anchor).
func (v *Verifier) AddCert(d *ndn.Data) error {
	if v.anchor != nil {
		return fmt.Errorf("%w: certificate %s is not the trusted one", ErrIntegrity, d.Name)
	}
	_, err := v.addCert(d)
	return err
}

func (v *Verifier) addCert(d *ndn.Data) (ndn.Name, error) {
	kn, err := security.GetKeyNameFromCertName(d.Name)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a certificate name", ErrIntegrity, d.Name)
	}
	cert, covered, err := ndn.NdndData(d)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate: %w", ErrIntegrity, err)
	}
	if ct, _ := cert.ContentType().Get(); ct != ndnd.ContentTypeKey {
		return nil, fmt.Errorf("%w: %s is not a certificate (content type %d)", ErrIntegrity, d.Name, ct)
	}
	if security.CertIsExpired(cert) {
		return nil, fmt.Errorf("%w: certificate %s is outside its validity period", ErrIntegrity, d.Name)
	}
	if !keyNameOf(d.Sig.KeyLocator).Equal(kn) {
		return nil, fmt.Errorf("%w: certificate %s is not self-signed (signed by %s)", ErrIntegrity, d.Name, d.Sig.KeyLocator)
	}
	if ok, err := signer.ValidateData(cert, covered, cert); !ok {
		return nil, fmt.Errorf("%w: certificate %s: %w", ErrIntegrity, d.Name, notVerified("self-signature", err))
	}
	v.certs[nameKey(kn)] = cert
	return kn, nil
}
