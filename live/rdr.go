package live

import (
	"errors"
	"fmt"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	rdr "github.com/named-data/ndnd/std/ndn/rdr_2024"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/ndn"
)

// MetadataFreshness is the FreshnessPeriod of RDR metadata packets, short
// so that a consumer asking with MustBeFresh reaches the producer and
// learns its current version (ndn-tools uses the same 10 ms).
const MetadataFreshness = 10 * time.Millisecond

// ErrBadMetadata reports an RDR metadata packet that does not name a
// version of the requested object.
var ErrBadMetadata = errors.New("bad RDR metadata")

// metadataKeyword is the 32=metadata name component of RDR.
func metadataKeyword() ndn.Component { return enc.NewKeywordComponent(rdr.MetadataKeyword) }

// MetadataName returns prefix/32=metadata, the name a consumer asks for
// (with CanBePrefix and MustBeFresh) to discover an object's version.
func MetadataName(prefix ndn.Name) ndn.Name {
	return prefix.Clone().Append(metadataKeyword())
}

// IsMetadataInterest reports whether an Interest name asks for the RDR
// metadata of prefix: prefix/32=metadata, possibly followed by a version
// and segment 0 of the metadata packet itself.
func IsMetadataInterest(prefix, name ndn.Name) bool {
	if len(name) <= len(prefix) || !prefix.IsPrefix(name) {
		return false
	}
	return name[len(prefix)].IsKeyword(rdr.MetadataKeyword)
}

// Metadata describes a served object for RDR discovery.
type Metadata struct {
	// Versioned is the object's versioned name (prefix/v=V).
	Versioned ndn.Name
	// LastSegment is the number of the final segment.
	LastSegment uint64
	// SegmentSize and Size are the payload size of a segment and of the
	// object, in bytes (ndnd's optional fields).
	SegmentSize uint64
	Size        uint64
}

// MetadataData returns the unsigned RDR metadata packet of an object: named
// prefix/32=metadata/v=V/seg=0, its Content the metadata (the versioned
// Name first, as ndn-tools reads it, then the FinalBlockId, segment size and
// object size as ndnd writes them).
func MetadataData(m Metadata) (*ndn.Data, error) {
	if len(m.Versioned) == 0 || !m.Versioned[len(m.Versioned)-1].IsVersion() {
		return nil, fmt.Errorf("live: metadata: %s does not end with a version", m.Versioned)
	}
	prefix := m.Versioned[:len(m.Versioned)-1]
	final := enc.NewSegmentComponent(m.LastSegment)
	content := rdr.MetaData{
		Name:         m.Versioned,
		FinalBlockID: final.Bytes(),
		SegmentSize:  optional.Some(m.SegmentSize),
		Size:         optional.Some(m.Size),
	}
	return &ndn.Data{
		Name:      MetadataName(prefix).Append(m.Versioned[len(m.Versioned)-1], enc.NewSegmentComponent(0)),
		Freshness: MetadataFreshness,
		Content:   content.Bytes(),
	}, nil
}

// ParseMetadata reads the versioned name from the RDR metadata packet d
// answering prefix/32=metadata. The name must be prefix/v=V.
func ParseMetadata(prefix ndn.Name, d *ndn.Data) (ndn.Name, error) {
	m, err := safely(func() (*rdr.MetaData, error) {
		return rdr.ParseMetaData(enc.NewBufferView(d.Content), true)
	})
	if err != nil {
		return nil, fmt.Errorf("%w in %s: %w", ErrBadMetadata, d.Name, err)
	}
	v := m.Name
	if len(v) != len(prefix)+1 || !prefix.IsPrefix(v) || !v[len(v)-1].IsVersion() {
		return nil, fmt.Errorf("%w in %s: names %s, not %s/v=<version>", ErrBadMetadata, d.Name, v, prefix)
	}
	return v.Clone(), nil
}
