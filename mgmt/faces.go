package mgmt

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// Faces is the face table of the runtime the manager runs in: the live
// runtime implements it with its sockets. The manager calls it on the
// forwarder's loop.
type Faces interface {
	// List describes every face that is up, except the manager's own.
	List() []FaceInfo
	// Create creates a face as req asks and calls done exactly once, on
	// the loop, now or later: with the new face's description (the face
	// added to the forwarder), or with an error. A *StatusError gives
	// NFD's status: 409 with the existing face's description for a remote
	// that has a face already, 406 for what the runtime does not support
	// (a LocalUri it cannot bind, on-demand persistency, local fields on a
	// non-local face), 504 when the remote cannot be reached. Any other
	// error is answered with 500.
	Create(req FaceRequest, done func(FaceInfo, error))
	// Destroy closes face id and removes it from the forwarder
	// (Forwarder.RemoveFace, which takes its routes out of the RIB too);
	// it reports whether there was such a face.
	Destroy(id fw.FaceID) bool
}

// FaceRequest is a faces/create command, checked by the manager: the
// remote is a canonical udp4 or tcp4 FaceUri.
type FaceRequest struct {
	// Remote is the canonical remote FaceUri: udp4://192.0.2.1:6363 or
	// tcp4://192.0.2.1:6363 (a dotted-quad address and a port).
	Remote string
	// Scheme is udp4 or tcp4; IP and Port are the remote's IPv4 address
	// and port.
	Scheme string
	IP     [4]byte
	Port   uint16
	// Local is the LocalUri to bind, "" for any.
	Local string
	// Persistency is the face's persistency (NFD's default: persistent).
	Persistency nfd.Persistency
	// Flags are the face flags to set (FaceFlagLocalFieldsEnabled,
	// FaceFlagLpReliabilityEnabled, FaceFlagCongestionMarkingEnabled)
	// where Mask has them; elsewhere the runtime's defaults apply.
	Flags, Mask uint64
	// MTU, BaseCongestionMarkingInterval and DefaultCongestionThreshold
	// are set when the command gives them.
	MTU                           optional.Optional[uint64]
	BaseCongestionMarkingInterval optional.Optional[time.Duration]
	DefaultCongestionThreshold    optional.Optional[uint64]
}

// FaceInfo describes one face for faces/list and the responses of
// faces/create.
type FaceInfo struct {
	ID fw.FaceID
	// Remote and Local are FaceUris (udp4://192.0.2.1:6363,
	// unix:///run/nfd/nfd.sock, fd://12, ...).
	Remote, Local string
	// Scope, Persistency and LinkType take NFD's values (ndnd's
	// mgmt_2022 constants FaceScope*, FacePers*, FaceLink*).
	Scope       uint64
	Persistency uint64
	LinkType    uint64
	// Flags are NFD's face flags in force (FaceFlag*).
	Flags uint64
	// MTU, BaseCongestionMarkingInterval, DefaultCongestionThreshold and
	// ExpirationPeriod (of an on-demand face) are reported when set.
	MTU                           optional.Optional[uint64]
	BaseCongestionMarkingInterval optional.Optional[time.Duration]
	DefaultCongestionThreshold    optional.Optional[uint64]
	ExpirationPeriod              optional.Optional[time.Duration]
	// Link-layer counters the runtime keeps: bytes in and out, packets
	// its send queue marked (CongestionMark set by the AQM or the backlog
	// marker) and dropped, and the packets in that queue now.
	InBytes, OutBytes uint64
	Marked, Dropped   uint64
	QueueLen          uint64
}

// StreamMTU is the MTU NFD reports for a face with no limit of its own
// (Unix and TCP stream faces, the internal face): ndn-cxx's
// MAX_NDN_PACKET_SIZE.
const StreamMTU = 8800

// StatusError is a failure with NFD's status code and text.
type StatusError struct {
	Code uint64
	Text string
}

func (e *StatusError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Text) }

// FaceStatus TLV types ndncc adds after NFD's fields (even numbers above
// 31: decoders that do not know them skip them). NCongestionMarked is the
// type ndnd gives its forwarder's marks counter.
const (
	TLVNCongestionMarked = 0xd0 // packets marked on this face's send queue
	TLVNQueueDrops       = 0xd2 // packets its send queue dropped
	TLVQueueLength       = 0xd4 // packets in its send queue now
)

// facesModule is NFD's faces module: create, destroy and the faces/list
// dataset.
func (m *Manager) facesModule() module {
	return module{
		commands: map[string]command{
			"create": {
				required: fURI,
				optional: fLocalURI | fFlags | fMask | fPersistency | fBaseMarkingInterval | fDefaultThreshold | fMTU,
				run:      m.createFace,
			},
			"destroy": {
				required: fFaceID,
				validate: validFaceID,
				run:      m.destroyFace,
			},
		},
		datasets: map[string]func() ([]byte, error){"list": m.faceList, "channels": m.channelList},
		queries:  map[string]func([]byte) ([]byte, error){"query": m.faceQuery},
	}
}

// Channels is what a runtime's Faces may also implement: the LocalUris of
// its listeners (NFD's channels: unix:///run/nfd.sock,
// udp4://0.0.0.0:6363, ...), for the faces/channels dataset. Without it
// the dataset is empty.
type Channels interface {
	Channels() []string
}

// channelList is the faces/channels dataset: a ChannelStatus (its
// LocalUri) per listener of the runtime.
func (m *Manager) channelList() ([]byte, error) {
	ch, ok := m.faces.(Channels)
	if !ok {
		return nil, nil
	}
	var out []byte
	for _, uri := range ch.Channels() {
		out = appendTLV(out, tlvChannelStatus, appendTLV(nil, tlvLocalURI, []byte(uri)))
	}
	return out, nil
}

// ChannelStatus element and its LocalUri field (ndn-cxx's
// nfd::ChannelStatus; ndnd's mgmt_2022 has no type for it).
const (
	tlvChannelStatus = 0x82
	tlvLocalURI      = 0x81
)

// faceQuery is the faces/query dataset: the FaceStatus of the faces that
// match a FaceQueryFilter, each field of the filter that is present
// matching as NFD matches it (UriScheme matches either URI's scheme).
func (m *Manager) faceQuery(param []byte) ([]byte, error) {
	f, err := ndn.ParseSafely(func() (*nfd.FaceQueryFilter, error) {
		return nfd.ParseFaceQueryFilter(enc.NewBufferView(param), false)
	})
	if err != nil || f.Val == nil {
		return nil, &StatusError{Code: 400, Text: "Malformed filter"}
	}
	return m.faceStatuses(func(fi FaceInfo) bool { return matchFilter(f.Val, fi) }), nil
}

// matchFilter tells whether face fi matches filter q.
func matchFilter(q *nfd.FaceQueryFilterValue, fi FaceInfo) bool {
	scheme := func(uri string) string { s, _, _ := strings.Cut(uri, "://"); return s }
	for _, ok := range []bool{
		!q.FaceId.IsSet() || q.FaceId.Unwrap() == uint64(fi.ID),
		!q.UriScheme.IsSet() || q.UriScheme.Unwrap() == scheme(fi.Remote) || q.UriScheme.Unwrap() == scheme(fi.Local),
		!q.Uri.IsSet() || q.Uri.Unwrap() == fi.Remote,
		!q.LocalUri.IsSet() || q.LocalUri.Unwrap() == fi.Local,
		!q.FaceScope.IsSet() || q.FaceScope.Unwrap() == fi.Scope,
		!q.FacePersistency.IsSet() || q.FacePersistency.Unwrap() == fi.Persistency,
		!q.LinkType.IsSet() || q.LinkType.Unwrap() == fi.LinkType,
	} {
		if !ok {
			return false
		}
	}
	return true
}

// createFace checks a faces/create command and asks the runtime for the
// face: the remote must be a canonical udp4 or tcp4 FaceUri.
func (m *Manager) createFace(_ request, a *nfd.ControlArgs, done func(response)) {
	req, res, ok := faceRequest(a)
	if !ok {
		done(res)
		return
	}
	m.faces.Create(req, func(info FaceInfo, err error) {
		var se *StatusError
		switch {
		case err == nil:
			done(success(createdFace(info)))
		case errors.As(err, &se) && se.Code == 409:
			done(response{code: 409, text: se.Text, body: createdFace(info)})
		case errors.As(err, &se):
			done(fail(se.Code, se.Text, ""))
		default:
			done(fail(500, "Face creation failed", err.Error()))
		}
	})
}

// faceRequest turns a faces/create command into a FaceRequest, or the
// error response NFD gives.
func faceRequest(a *nfd.ControlArgs) (FaceRequest, response, bool) {
	remote := a.Uri.Unwrap()
	scheme, ip, port, err := canonicalURI(remote)
	switch {
	case errors.Is(err, errUnsupportedScheme):
		return FaceRequest{}, fail(406, "Unsupported protocol", err.Error()), false
	case errors.Is(err, errNonCanonical):
		return FaceRequest{}, fail(400, "Non-canonical remote URI", err.Error()), false
	case err != nil:
		return FaceRequest{}, fail(400, textMalformed, err.Error()), false
	}
	req := FaceRequest{
		Remote: remote, Scheme: scheme, IP: ip, Port: port, Local: a.LocalUri.GetOr(""),
		Persistency: nfd.Persistency(a.FacePersistency.GetOr(nfd.FacePersPersistent)),
		Flags:       a.Flags.GetOr(0), Mask: a.Mask.GetOr(0),
		MTU: a.Mtu, DefaultCongestionThreshold: a.DefaultCongestionThreshold,
	}
	if why := notUnicast(ip); why != "" {
		return FaceRequest{}, fail(406, "Unsupported remote address", fmt.Sprintf("%s: %d.%d.%d.%d is %s; a face is to one peer", remote, ip[0], ip[1], ip[2], ip[3], why)), false
	}
	if req.Local != "" {
		if _, _, _, err := canonicalURI(req.Local); err != nil {
			return FaceRequest{}, fail(400, "Non-canonical local URI", err.Error()), false
		}
	}
	if req.Persistency > nfd.PersistencyPermanent {
		return FaceRequest{}, fail(400, textInvalid, fmt.Sprintf("FacePersistency %d", req.Persistency)), false
	}
	if ns, ok := a.BaseCongestionMarkInterval.Get(); ok {
		req.BaseCongestionMarkingInterval = optional.Some(time.Duration(min(ns, 1<<63-1)))
	}
	return req, response{}, true
}

// notUnicast says why ip cannot be a face's peer ("" if it can): the
// unspecified address, the limited broadcast, a multicast group (NFD's
// multicast faces come from its configuration, not faces/create).
func notUnicast(ip [4]byte) string {
	switch {
	case ip == [4]byte{}:
		return "the unspecified address"
	case ip == [4]byte{255, 255, 255, 255}:
		return "the broadcast address"
	case ip[0] >= 224 && ip[0] <= 239: // 224.0.0.0/4
		return "a multicast address"
	}
	return ""
}

var (
	errUnsupportedScheme = errors.New("only udp4 and tcp4 faces can be created")
	errNonCanonical      = errors.New("not a canonical FaceUri (udp4://a.b.c.d:port)")
)

// canonicalURI checks that s is a canonical udp4 or tcp4 FaceUri,
// scheme://a.b.c.d:port (decimal octets without leading zeros, a port
// from 1 to 65535), and returns its parts.
func canonicalURI(s string) (scheme string, ip [4]byte, port uint16, err error) {
	scheme, rest, found := strings.Cut(s, "://")
	switch {
	case !found:
		return "", ip, 0, fmt.Errorf("FaceUri %q has no scheme", s)
	case scheme == "udp" || scheme == "tcp":
		return "", ip, 0, fmt.Errorf("%q: %w", s, errNonCanonical)
	case scheme != "udp4" && scheme != "tcp4":
		return "", ip, 0, fmt.Errorf("%q: %w", s, errUnsupportedScheme)
	}
	host, portText, found := strings.Cut(rest, ":")
	octets := strings.Split(host, ".")
	p, perr := canonicalUint(portText, 65535)
	if !found || len(octets) != 4 || perr != nil || p == 0 {
		return "", ip, 0, fmt.Errorf("%q: %w", s, errNonCanonical)
	}
	for i, o := range octets {
		v, err := canonicalUint(o, 255)
		if err != nil {
			return "", ip, 0, fmt.Errorf("%q: %w", s, errNonCanonical)
		}
		ip[i] = byte(v)
	}
	return scheme, ip, uint16(p), nil
}

// canonicalUint parses a decimal number up to limit written without a
// sign or leading zeros.
func canonicalUint(s string, limit uint64) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	switch {
	case err != nil:
		return 0, err
	case v > limit || strconv.FormatUint(v, 10) != s:
		return 0, errNonCanonical
	}
	return v, nil
}

// createdFace is the body of a faces/create response: the face's ID,
// URIs, persistency, flags and link-service options.
func createdFace(f FaceInfo) *nfd.ControlArgs {
	a := &nfd.ControlArgs{
		FaceId: optional.Some(uint64(f.ID)), Uri: optional.Some(f.Remote), LocalUri: optional.Some(f.Local),
		FacePersistency: optional.Some(f.Persistency), Flags: optional.Some(f.Flags),
		Mtu: f.MTU, DefaultCongestionThreshold: f.DefaultCongestionThreshold,
	}
	if d, ok := f.BaseCongestionMarkingInterval.Get(); ok {
		a.BaseCongestionMarkInterval = optional.Some(uint64(d))
	}
	return a
}

// destroyFace closes a face (NFD's faces/destroy); destroying a face that
// does not exist succeeds, as in NFD. The manager's own face cannot be
// destroyed. The response goes out before the face is closed, so that an
// application that destroys its own face is answered too.
func (m *Manager) destroyFace(_ request, a *nfd.ControlArgs, done func(response)) {
	id := fw.FaceID(min(a.FaceId.Unwrap(), 1<<32-1))
	if id == m.face {
		done(fail(403, textRejected, "the management face cannot be destroyed"))
		return
	}
	done(success(&nfd.ControlArgs{FaceId: optional.Some(uint64(id))}))
	m.faces.Destroy(id)
}

// Faces returns the description of every face: the runtime's and the
// manager's internal face, in FaceID order, with the forwarder's packet
// counters.
func (m *Manager) Faces() []FaceInfo {
	fs := append(m.faces.List(), FaceInfo{
		ID: m.face, Remote: "internal://", Local: "internal://",
		Scope: nfd.FaceScopeLocal, Persistency: nfd.FacePersPermanent, LinkType: nfd.FaceLinkPointToPoint,
		Flags: nfd.FaceFlagLocalFieldsEnabled, MTU: optional.Some(uint64(StreamMTU)),
	})
	slices.SortFunc(fs, func(a, b FaceInfo) int { return int(a.ID) - int(b.ID) })
	return fs
}

// faceList is the faces/list dataset: a FaceStatus per face, with NFD's
// fields and counters and ndncc's queue counters after them.
func (m *Manager) faceList() ([]byte, error) {
	return m.faceStatuses(func(FaceInfo) bool { return true }), nil
}

// faceStatuses encodes a FaceStatus for each face that keep accepts.
func (m *Manager) faceStatuses(keep func(FaceInfo) bool) []byte {
	var out []byte
	for _, f := range m.Faces() {
		if !keep(f) {
			continue
		}
		c := m.fwd.FaceCounters(f.ID)
		st := nfd.FaceStatus{
			FaceId: uint64(f.ID), Uri: f.Remote, LocalUri: f.Local,
			FaceScope: f.Scope, FacePersistency: f.Persistency, LinkType: f.LinkType,
			DefaultCongestionThreshold: f.DefaultCongestionThreshold, Mtu: f.MTU,
			NInInterests: c.InInterests, NInData: c.InData, NInNacks: c.InNacks,
			NOutInterests: c.OutInterests, NOutData: c.OutData, NOutNacks: c.OutNacks,
			NInBytes: f.InBytes, NOutBytes: f.OutBytes, Flags: f.Flags,
		}
		if d, ok := f.BaseCongestionMarkingInterval.Get(); ok {
			st.BaseCongestionMarkInterval = optional.Some(uint64(d)) // nanoseconds, as NFD
		}
		if d, ok := f.ExpirationPeriod.Get(); ok {
			st.ExpirationPeriod = optional.Some(uint64(max(0, d) / time.Millisecond))
		}
		value := st.Encode().Join()
		for _, x := range []struct {
			typ enc.TLNum
			v   uint64
		}{{TLVNCongestionMarked, f.Marked}, {TLVNQueueDrops, f.Dropped}, {TLVQueueLength, f.QueueLen}} {
			value = appendTLV(value, x.typ, enc.Nat(x.v).Bytes())
		}
		out = appendTLV(out, 0x80, value) // FaceStatus
	}
	return out
}

// appendTLV appends a TLV element of type typ and value v to b, with
// ndnd's TLV number encoding.
func appendTLV(b []byte, typ enc.TLNum, v []byte) []byte {
	length := enc.TLNum(len(v))
	hdr := make([]byte, typ.EncodingLength()+length.EncodingLength())
	length.EncodeInto(hdr[typ.EncodeInto(hdr):])
	return append(append(b, hdr...), v...)
}
