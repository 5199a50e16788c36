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
//
// With TrustAny (SetTrust), key signatures are not checked at all — no
// certificate is fetched, no signer pinned — as ndn-tools' ndnget accepts
// any signature; a DigestSha256 is still compared with the content.
//
// Authentication says afterwards how the object was authenticated, or
// that it was not.
type Verifier struct {
	trust      Trust
	anchor     ndn.Name             // key name of the pinned certificate; nil: none
	anchorFile string               // the file it came from
	certs      map[string]ndnd.Data // certificates by key name
	signer     *signerID            // the signer of the first Data checked
	mixed      bool                 // TrustAny: Data of another signer came
}

// Trust is what a Verifier accepts.
type Trust int

const (
	// TrustIntegrity, the default, accepts a Data whose DigestSha256
	// matches or whose signature verifies with the self-signed
	// certificate the network serves for its key: integrity (no
	// corruption, one signer for the whole object), not authenticity —
	// anyone on the path can make such a Data.
	TrustIntegrity Trust = iota
	// TrustAny accepts any signature without checking it (ndnget's
	// default): for producers whose certificate is not served.
	TrustAny
	// TrustAnchor accepts only Data signed by the pinned certificate's
	// key (LoadTrustAnchor): the object is authenticated.
	TrustAnchor
)

// Authentication says how a fetched object was authenticated: Summary is
// the line fetch prints, the other fields its parts for --json.
type Authentication struct {
	// Authenticated is true only when every Data verified with a trusted
	// certificate (TrustAnchor).
	Authenticated bool `json:"authenticated"`
	// Trust is "digest" (TrustIntegrity, fetch's --trust digest), "any"
	// or "anchor" (a certificate file).
	Trust string `json:"trust"`
	// Signature is the signature type of the object's Data
	// ("DigestSha256", "Ed25519", "ECDSA", "RSA", "HMAC"), "" if none
	// was seen; Signer the key name, "" for a digest.
	Signature string `json:"signature,omitempty"`
	Signer    string `json:"signer,omitempty"`
	// Checked says whether signatures were checked (false with
	// TrustAny).
	Checked bool `json:"checked"`
	// Anchor is the trusted certificate's file, with TrustAnchor.
	Anchor  string `json:"anchor,omitempty"`
	Summary string `json:"summary"`
}

// String returns a's summary.
func (a Authentication) String() string { return a.Summary }

// sigTypeName names a signature type as the summary does.
func sigTypeName(t ndn.SigType) string {
	switch t {
	case ndn.SigDigestSHA256:
		return "DigestSha256"
	case ndn.SigEd25519:
		return "Ed25519"
	case ndn.SigSHA256WithECDSA:
		return "ECDSA"
	case ndn.SigSHA256WithRSA:
		return "RSA"
	case ndn.SigHMACWithSHA256:
		return "HMAC"
	}
	return fmt.Sprintf("signature type %d", t)
}

// SetTrust sets what v accepts: TrustIntegrity or TrustAny (TrustAnchor
// comes with LoadTrustAnchor). Call it before the first Check.
func (v *Verifier) SetTrust(t Trust) error {
	if t == TrustAnchor && v.anchor == nil {
		return errors.New("trust anchor: load a certificate (LoadTrustAnchor)")
	}
	if t != TrustAnchor {
		v.anchor, v.anchorFile = nil, ""
	}
	v.trust = t
	return nil
}

// Authentication describes how the Data checked so far were
// authenticated: call it once the object is fetched.
func (v *Verifier) Authentication() Authentication {
	a := Authentication{Trust: [...]string{"digest", "any", "anchor"}[v.trust], Checked: v.trust != TrustAny, Anchor: v.anchorFile}
	if v.signer != nil {
		a.Signature = sigTypeName(v.signer.typ)
		if v.signer.typ != ndn.SigDigestSHA256 {
			a.Signer = v.signer.key.String()
		}
	}
	switch {
	case v.signer == nil:
		a.Summary = "no Data checked: not authenticated"
	case v.trust == TrustAnchor:
		a.Authenticated = true
		a.Summary = fmt.Sprintf("verified: %s by %s (trusted certificate %s)", a.Signature, a.Signer, v.anchorFile)
	case v.trust == TrustAny && v.mixed:
		a.Summary = "not verified (--trust any): signatures not checked, and not all Data have the same signer: not authenticated"
	case v.trust == TrustAny && a.Signer == "":
		a.Summary = "not verified (--trust any): digests only, not authenticated"
	case v.trust == TrustAny:
		a.Summary = fmt.Sprintf("not verified (--trust any): %s by %s not checked: not authenticated", a.Signature, a.Signer)
	case a.Signer == "":
		a.Summary = "digests only: not authenticated"
	default:
		a.Summary = fmt.Sprintf("integrity only: %s by %s, checked with the self-signed certificate the network served, not a trusted one: not authenticated", a.Signature, a.Signer)
	}
	return a
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
	v.anchor, v.anchorFile, v.trust = kn, path, TrustAnchor
	return nil
}

// Check verifies d. It returns a non-nil key name, and no error, when d is
// signed by a key whose certificate the verifier does not have yet: fetch
// it (an Interest for that name with CanBePrefix), give it to AddCert, and
// check d again.
func (v *Verifier) Check(d *ndn.Data) (needKey ndn.Name, err error) {
	return v.check(d, digestUnchecked)
}

// digestCheck is what a face's reader found of a Data's DigestSha256
// (face.Face.DigestChecked).
type digestCheck int8

const (
	digestUnchecked digestCheck = iota
	digestOK
	digestBad
)

// check is Check with the digest already verified by a face's reader
// (digestOK or digestBad), or not (digestUnchecked).
func (v *Verifier) check(d *ndn.Data, digest digestCheck) (ndn.Name, error) {
	if d.Sig.Type == ndn.SigNone {
		return nil, fmt.Errorf("%w: %s carries no signature", ErrIntegrity, d.Name)
	}
	if v.trust == TrustAny {
		return nil, v.checkAny(d, digest)
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

// checkAny is check with TrustAny: a DigestSha256 is compared with the
// content, any other signature accepted as it is; the first signer is
// kept for the summary.
func (v *Verifier) checkAny(d *ndn.Data, digest digestCheck) error {
	id := signerID{typ: d.Sig.Type}
	if id.typ != ndn.SigDigestSHA256 {
		id.key = keyNameOf(d.Sig.KeyLocator)
	}
	if v.signer == nil {
		v.signer = &signerID{typ: id.typ, key: id.key.Clone()}
	} else if id.typ != v.signer.typ || !id.key.Equal(v.signer.key) {
		v.mixed = true
	}
	if d.Sig.Type != ndn.SigDigestSHA256 {
		return nil
	}
	switch digest {
	case digestOK:
		return nil
	case digestBad:
		return fmt.Errorf("%w: %s: %w", ErrIntegrity, d.Name, ndn.ErrBadSignature)
	}
	if err := ndn.VerifyDigest(d); err != nil {
		return fmt.Errorf("%w: %w", ErrIntegrity, err)
	}
	return nil
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
