package fwd

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/mgmt"
)

// The forwarder's face table as NFD management sees it: Forwarder
// implements mgmt.Faces.
var _ mgmt.Faces = (*Forwarder)(nil)

// dialTimeout bounds a TCP connection that faces/create asks for.
const dialTimeout = 10 * time.Second

// List implements mgmt.Faces: every face of the table (the manager's own
// is not in it).
func (d *Forwarder) List() []mgmt.FaceInfo {
	out := make([]mgmt.FaceInfo, 0, len(d.faces))
	for _, e := range d.faces {
		out = append(out, d.info(e))
	}
	return out
}

// info describes face e as NFD's FaceStatus does.
func (d *Forwarder) info(e *entry) mgmt.FaceInfo {
	c := e.f.Config()
	st := e.f.Stats()
	info := mgmt.FaceInfo{
		ID: e.id, Remote: c.Remote, Local: c.Local,
		Scope: nfd.FaceScopeNonLocal, Persistency: uint64(c.Persistency), LinkType: nfd.FaceLinkPointToPoint,
		InBytes: st.BytesIn, OutBytes: st.BytesOut,
		Marked: st.Queue.Marks, Dropped: st.Drops(), QueueLen: uint64(st.QueueLen),
	}
	if c.Scope == face.Local {
		info.Scope = nfd.FaceScopeLocal
	}
	if e.rel != nil {
		info.Flags |= nfd.FaceFlagLpReliabilityEnabled
	}
	if q, ok := e.f.Queue().(backlogMarking); ok {
		info.Flags |= nfd.FaceFlagCongestionMarkingEnabled
		info.BaseCongestionMarkingInterval = optional.Some(q.Params().Interval)
		info.DefaultCongestionThreshold = optional.Some(uint64(q.Threshold()))
	}
	info.MTU = optional.Some(uint64(mgmt.StreamMTU)) // NFD's for a stream face: no limit of its own
	if e.f.Datagram() {
		info.MTU = optional.Some(uint64(c.MTU))
		if c.Persistency == face.OnDemand {
			left := max(d.cfg.IdleTimeout-(d.loop.Now()-e.lastRx), 0)
			info.ExpirationPeriod = optional.Some(left)
		}
	}
	return info
}

// Channels implements mgmt.Channels: the LocalUris of the open
// listeners, for the faces/channels dataset.
func (d *Forwarder) Channels() []string {
	var out []string
	if d.unix != nil {
		out = append(out, d.unix.URI())
	}
	if d.udp != nil {
		out = append(out, d.udp.URI())
	}
	if d.tcp != nil {
		out = append(out, d.tcp.URI())
	}
	return out
}

// backlogMarking is a queue that marks by backlog (aqm.BacklogMarker).
type backlogMarking interface {
	Params() aqm.BacklogParams
	Threshold() int
}

// Create implements mgmt.Faces: a persistent or permanent UDP face on the
// UDP listener's socket, or a TCP connection, with the command's MTU, link
// reliability (link-loss detection) and congestion-marking settings.
func (d *Forwarder) Create(req mgmt.FaceRequest, done func(mgmt.FaceInfo, error)) {
	refuse := func(code uint64, format string, args ...any) {
		done(mgmt.FaceInfo{}, &mgmt.StatusError{Code: code, Text: fmt.Sprintf(format, args...)})
	}
	if req.Persistency == nfd.PersistencyOnDemand {
		refuse(406, "on-demand faces are created by the forwarder's listeners, not by management")
		return
	}
	if req.Mask&req.Flags&nfd.FaceFlagLocalFieldsEnabled != 0 {
		refuse(406, "local fields are for local applications' faces")
		return
	}
	if e := d.byRemote(req.Remote); e != nil {
		done(d.info(e), &mgmt.StatusError{Code: 409, Text: "Face with remote URI already exists"})
		return
	}
	if d.isOwnListener(req.Scheme, netip.AddrPortFrom(netip.AddrFrom4(req.IP), req.Port)) {
		refuse(406, "%s is this forwarder's own listener: a face to itself would loop every packet", req.Remote)
		return
	}
	ff, err := d.requestedFace(req)
	if err != nil {
		refuse(406, "%v", err)
		return
	}
	p := face.Persistent
	if req.Persistency == nfd.PersistencyPermanent {
		p = face.Permanent
	}
	if req.Scheme == "udp4" {
		if d.udp == nil {
			refuse(406, "Unsupported protocol") // NFD's answer when its UDP factory is off
			return
		}
		if req.Local != "" && req.Local != d.udp.URI() {
			refuse(406, "LocalUri %s: UDP faces use the listener's socket, %s", req.Local, d.udp.URI())
			return
		}
		f, _ := d.udp.Face(netip.AddrPortFrom(netip.AddrFrom4(req.IP), req.Port), p)
		if mtu, ok := req.MTU.Get(); ok {
			f.SetMTU(int(mtu))
		}
		e := d.add(f, ff)
		f.Start()
		done(d.info(e), nil)
		return
	}
	if req.Local != "" {
		refuse(406, "LocalUri %s: TCP faces connect from any local address", req.Local)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
		defer cancel()
		f, err := face.DialTCP(ctx, d, "tcp4", ff.Address, p, d.log)
		d.loop.Post(func() {
			if err != nil {
				done(mgmt.FaceInfo{}, &mgmt.StatusError{Code: 504, Text: err.Error()})
				return
			}
			if e := d.byRemote(f.Config().Remote); e != nil { // created meanwhile
				f.Close()
				done(d.info(e), &mgmt.StatusError{Code: 409, Text: "Face with remote URI already exists"})
				return
			}
			e := d.add(f, ff)
			f.Start()
			done(d.info(e), nil)
		})
	}()
}

// requestedFace is the configuration a faces/create command asks for:
// the forwarder's queue, backlog marking with the command's interval and
// threshold (or no marking, a drop-tail queue, when the command clears
// the congestion-marking flag), and link reliability when its flag is
// set.
func (d *Forwarder) requestedFace(req mgmt.FaceRequest) (*fwconf.Face, error) {
	addr := netip.AddrPortFrom(netip.AddrFrom4(req.IP), req.Port).String()
	ff := &fwconf.Face{ID: req.Remote, Remote: req.Remote, Scheme: req.Scheme, Address: addr}
	_, interval := req.BaseCongestionMarkingInterval.Get()
	_, threshold := req.DefaultCongestionThreshold.Get()
	switch {
	case req.Mask&nfd.FaceFlagCongestionMarkingEnabled != 0 && req.Flags&nfd.FaceFlagCongestionMarkingEnabled == 0:
		ff.Queue = "droptail"
	case interval || threshold:
		ff.Queue = "threshold-mark"
		ff.QueueParams = map[string]string{}
		if v, ok := req.BaseCongestionMarkingInterval.Get(); ok {
			ff.QueueParams["interval"] = v.String()
		}
		if v, ok := req.DefaultCongestionThreshold.Get(); ok {
			ff.QueueParams["threshold-bytes"] = strconv.FormatUint(min(v, 1<<31-1), 10)
		}
	}
	if req.Mask&nfd.FaceFlagLpReliabilityEnabled != 0 {
		on := req.Flags&nfd.FaceFlagLpReliabilityEnabled != 0
		if on && req.Scheme != "udp4" {
			return nil, fmt.Errorf("link reliability runs on UDP faces only")
		}
		ff.LossDetection = &on
	}
	if mtu, ok := req.MTU.Get(); ok && (req.Scheme != "udp4" || mtu < face.MinUDPMTU || mtu > face.MaxUDPMTU) {
		return nil, fmt.Errorf("MTU %d: want %d to %d, on a UDP face", mtu, face.MinUDPMTU, face.MaxUDPMTU)
	}
	if _, err := newQueue(d.cfg, ff, ff.Out); err != nil {
		return nil, err
	}
	return ff, nil
}

// byRemote returns the face whose remote URI is remote, nil if none.
func (d *Forwarder) byRemote(remote string) *entry {
	for _, e := range d.faces {
		if e.f.Config().Remote == remote {
			return e
		}
	}
	return nil
}

// Destroy implements mgmt.Faces.
func (d *Forwarder) Destroy(id fw.FaceID) bool {
	e := d.faces[id]
	if e == nil {
		return false
	}
	d.removeFace(e.f, fmt.Errorf("destroyed by management"))
	return true
}
