package live

import (
	"fmt"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	mgmt "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/ndn"
)

// maxDatasetSegments bounds how many segments Dataset fetches: a status
// dataset larger than this is an error, not an endless fetch.
const maxDatasetSegments = 4096

// Dataset fetches the status dataset /localhost/nfd/MODULE/DATASET (such
// as fib/list or faces/list) from the forwarder: its newest version, every
// segment in order, and calls done with their contents joined. NFD, ndnd
// and ndncc fw serve these datasets to local applications.
func (e *Endpoint) Dataset(module, dataset string, done func([]byte, error)) {
	prefix, err := ndn.ParseName("/localhost/nfd/" + module + "/" + dataset)
	if err != nil {
		done(nil, err)
		return
	}
	fail := func(err error) { done(nil, fmt.Errorf("dataset %s: %w", prefix, err)) }
	var content []byte
	var versioned ndn.Name
	var next func(seg uint64)
	got := func(d *ndn.Data, err error) {
		if err != nil {
			fail(err)
			return
		}
		seg, ok := ndn.SegmentOf(d.Name)
		if !ok || len(d.Name) < len(prefix)+2 {
			fail(fmt.Errorf("answer %s has no version and segment", d.Name))
			return
		}
		if versioned == nil {
			versioned = d.Name[:len(d.Name)-1]
		}
		content = append(content, d.Content...)
		last, ok := d.FinalSegment()
		switch {
		case !ok || seg >= last:
			done(content, nil)
		case seg+1 >= maxDatasetSegments:
			fail(fmt.Errorf("more than %d segments", maxDatasetSegments))
		default:
			next(seg + 1)
		}
	}
	next = func(seg uint64) {
		name := append(versioned[:len(versioned):len(versioned)], enc.NewSegmentComponent(seg))
		e.Express(Request{Name: name, Lifetime: datasetLifetime, Retries: 2}, got)
	}
	// The first Interest asks for the newest version; its answer is
	// segment 0 (NFD, ndnd) and names the version to fetch the rest of.
	e.Express(Request{Name: prefix, CanBePrefix: true, MustBeFresh: true, Lifetime: datasetLifetime, Retries: 2}, func(d *ndn.Data, err error) {
		if err == nil {
			if seg, ok := ndn.SegmentOf(d.Name); ok && seg != 0 {
				err = fmt.Errorf("first answer %s is not segment 0", d.Name)
			}
		}
		got(d, err)
	})
}

// datasetLifetime is the lifetime of a dataset Interest.
const datasetLifetime = time.Second

// FIBEntry is one entry of a forwarder's FIB: a prefix and the faces of
// its next hops.
type FIBEntry struct {
	Prefix ndn.Name
	Faces  []uint64
}

// ParseFIB decodes a fib/list dataset (FibEntry records).
func ParseFIB(b []byte) ([]FIBEntry, error) {
	st, err := safely(func() (*mgmt.FibStatus, error) {
		return mgmt.ParseFibStatus(enc.NewBufferView(b), true)
	})
	if err != nil {
		return nil, fmt.Errorf("fib/list: %w", err)
	}
	out := make([]FIBEntry, 0, len(st.Entries))
	for _, en := range st.Entries {
		fe := FIBEntry{Prefix: en.Name}
		for _, nh := range en.NextHopRecords {
			fe.Faces = append(fe.Faces, nh.FaceId)
		}
		out = append(out, fe)
	}
	return out, nil
}
