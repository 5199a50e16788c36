package scenario

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/ndncc/ndncc/topology"
)

// Limits on what a scenario may ask for. Each bounds the memory and time a
// file can make the simulator spend before it can say what is wrong, and
// each is far above what an experiment needs (the topology's own limits
// are topology.MaxNodes, MaxLinks, MaxQueuePackets and MaxQueueBytes).
const (
	// MaxFileBytes bounds a scenario file.
	MaxFileBytes = 16 << 20
	// MaxTopologyFileBytes bounds a Mini-NDN topology file.
	MaxTopologyFileBytes = 8 << 20
	// MaxConsumers, MaxProducers, MaxTCPFlows and MaxLinkQueues bound the
	// [[consumer]], [[producer]], [[tcp]] and [[links]] entries.
	MaxConsumers  = 100_000
	MaxProducers  = 100_000
	MaxTCPFlows   = 10_000
	MaxLinkQueues = 100_000
	// MaxObjectBytes bounds a producer's file-size and a TCP flow's size
	// (1 TiB).
	MaxObjectBytes = 1 << 40
	// MaxSegmentSize bounds a producer's segment-size: NDN's packet size
	// limit (NFD's and ndnd's).
	MaxSegmentSize = 8800
	// MaxHeaderOverhead bounds header-overhead.
	MaxHeaderOverhead = 8800
	// MaxCSCapacity bounds cs-capacity, in Data packets (the Content Store
	// grows with use: only what it caches costs memory).
	MaxCSCapacity = 1_000_000_000
)

// readLimited reads all of r, or fails when it holds more than limit
// bytes; what names the file in the error.
func readLimited(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than the %d MiB limit", what, limit>>20)
	}
	return data, nil
}

// checkRegular requires a file to be a regular file of at most limit
// bytes: a device (/dev/urandom) or a FIFO would be read without end.
func checkRegular(f fs.File, limit int64, what string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file", what, kindOf(st.Mode()))
	}
	if st.Size() > limit {
		return fmt.Errorf("%s is %d bytes, over the %d MiB limit", what, st.Size(), limit>>20)
	}
	return nil
}

// kindOf names the type of a file that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// tooMany reports an array of tables with more than limit entries, at the
// position of the first entry past the limit.
func (d *decoder) tooMany(key string, n, limit int) bool {
	if n <= limit {
		return false
	}
	d.errs = append(d.errs, topology.Errorf(d.at(joinIndex(key, limit)), key,
		"%d entries, over the limit of %d", n, limit))
	return true
}
