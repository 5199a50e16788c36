package mgmt

import (
	"errors"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// Status datasets are published as NFD publishes them: an Interest for
// /localhost/nfd/<module>/<verb> (CanBePrefix, usually MustBeFresh) makes
// a new version of the dataset, named <Interest name>/v=<version>, cut
// into segments /seg=0, /seg=1, ... of at most SegmentSize bytes of
// content, the last carrying FinalBlockId; the first segment answers the
// Interest, and the others are served by exact name from a store of the
// most recent datasets.
const (
	// SegmentSize is the most content bytes of one dataset segment.
	SegmentSize = 8000
	// KeptDatasets is how many datasets the store holds; the oldest goes
	// first.
	KeptDatasets = 16
	// datasetFreshness is the FreshnessPeriod of dataset segments: short,
	// so that a Content Store never answers a new request with an old
	// version.
	datasetFreshness = time.Millisecond
)

// dataset is one version of a status dataset, ready to serve.
type dataset struct {
	name ndn.Name // versioned
	segs []*ndn.Data
}

// datasetStore holds the most recent datasets.
type datasetStore struct {
	kept []dataset // oldest first
}

// add keeps ds, forgetting the oldest dataset beyond KeptDatasets.
func (s *datasetStore) add(ds dataset) {
	if len(s.kept) == KeptDatasets {
		s.kept = append(s.kept[:0], s.kept[1:]...)
	}
	s.kept = append(s.kept, ds)
}

// find returns the segment that name asks for: <versioned name>/seg=N, or
// the versioned name alone for segment 0.
func (s *datasetStore) find(name ndn.Name) *ndn.Data {
	for i := len(s.kept) - 1; i >= 0; i-- {
		ds := s.kept[i]
		if !ds.name.IsPrefix(name) {
			continue
		}
		switch len(name) - len(ds.name) {
		case 0:
			return ds.segs[0]
		case 1:
			if c := name[len(name)-1]; c.IsSegment() && c.NumberVal() < uint64(len(ds.segs)) {
				return ds.segs[c.NumberVal()]
			}
		}
		return nil
	}
	return nil
}

// serveDataset answers a dataset request whose name is at components of
// prefix and verb, possibly followed by a version and a segment.
func (m *Manager) serveDataset(r request, at int, build func() ([]byte, error)) {
	name := r.in.Name
	if len(name) > at {
		if last := name[len(name)-1]; !last.IsVersion() && !last.IsSegment() {
			m.reply(r, fail(400, textMalformed, "a dataset name ends with the verb, a version or a segment"))
			return
		}
		if d := m.store.find(name); d != nil {
			m.stats.Segments++
			m.fwd.Receive(m.face, ndn.Packet{Data: d})
			return
		}
		m.stats.Dropped++
		return
	}
	content, err := build()
	var se *StatusError
	switch {
	case errors.As(err, &se):
		m.reply(r, fail(se.Code, se.Text, ""))
		return
	case err != nil:
		m.reply(r, fail(500, "dataset not produced", err.Error()))
		return
	}
	ds, err := m.makeDataset(name, content)
	if err != nil {
		m.reply(r, fail(500, "dataset not produced", err.Error()))
		return
	}
	m.store.add(ds)
	m.stats.Datasets++
	m.stats.Segments++
	m.fwd.Receive(m.face, ndn.Packet{Data: ds.segs[0]})
}

// makeDataset cuts content into signed segments of a new version of the
// dataset named name.
func (m *Manager) makeDataset(name ndn.Name, content []byte) (dataset, error) {
	vname := append(name.Clone(), enc.NewVersionComponent(m.nextVersion()))
	n := max(1, (len(content)+SegmentSize-1)/SegmentSize)
	ds := dataset{name: vname, segs: make([]*ndn.Data, n)}
	final := enc.NewSegmentComponent(uint64(n - 1))
	for i := range n {
		chunk := content[i*SegmentSize : min((i+1)*SegmentSize, len(content))]
		d := &ndn.Data{
			Name:      append(vname.Clone(), enc.NewSegmentComponent(uint64(i))),
			Freshness: datasetFreshness, FinalBlockID: final, HasFinal: true,
			Content: chunk,
		}
		if _, err := ndn.EncodeData(d, nil); err != nil {
			return dataset{}, err
		}
		ds.segs[i] = d
	}
	return ds, nil
}
