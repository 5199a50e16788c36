package cc

import "fmt"

// SampleMode says which Data give RTT samples.
type SampleMode uint8

// The two sampling modes seed 000 compares: its Designs #1 and #2 sample
// every Data, its Design #3 takes one sample per RTT.
const (
	// SampleEveryData takes a sample from every Data that was not
	// retransmitted.
	SampleEveryData SampleMode = iota
	// SampleOncePerRTT takes one sample per round trip, as TCP does
	// without timestamps: see RTTSampler.
	SampleOncePerRTT
)

// String is the name ParseSampleMode accepts.
func (m SampleMode) String() string {
	switch m {
	case SampleEveryData:
		return "every-data"
	case SampleOncePerRTT:
		return "once-per-rtt"
	}
	return fmt.Sprintf("SampleMode(%d)", uint8(m))
}

// ParseSampleMode maps "every-data" and "once-per-rtt" to a SampleMode.
func ParseSampleMode(s string) (SampleMode, error) {
	switch s {
	case "every-data":
		return SampleEveryData, nil
	case "once-per-rtt":
		return SampleOncePerRTT, nil
	}
	return 0, fmt.Errorf("rtt sampling %q: want every-data or once-per-rtt", s)
}

// RTTSampler decides which Data give RTT samples.
//
// Karn's rule holds in both modes: a Data for a retransmitted segment never
// gives a sample, because it cannot be told which transmission it answers.
//
// In SampleOncePerRTT mode the sampler keeps a marker, initially 0. A
// non-retransmitted Data whose segment is >= the marker gives a sample, and
// the marker becomes highInterest+1, where highInterest is the highest
// segment sent so far (Ack.HighInterest: the value before the pipeline sends
// anything in response to this Data). The next sample therefore comes from
// a segment sent after this one was sampled, about one RTT later. Data for
// segments below the marker, and retransmitted ones, leave the marker alone.
//
// The zero value samples every Data.
type RTTSampler struct {
	mode SampleMode
	next uint64 // segments >= next may give the next sample
}

// NewRTTSampler returns a sampler in the given mode.
func NewRTTSampler(mode SampleMode) *RTTSampler { return &RTTSampler{mode: mode} }

// Mode is the sampling mode.
func (s *RTTSampler) Mode() SampleMode { return s.mode }

// Take reports whether the Data for seg gives an RTT sample, and advances
// the marker when it does.
func (s *RTTSampler) Take(seg uint64, retransmitted bool, highInterest uint64) bool {
	if retransmitted {
		return false
	}
	if s.mode == SampleEveryData {
		return true
	}
	if seg < s.next {
		return false
	}
	s.next = highInterest + 1
	return true
}

// Marker is the lowest segment that can give the next sample in
// SampleOncePerRTT mode.
func (s *RTTSampler) Marker() uint64 { return s.next }
