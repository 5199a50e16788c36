package live

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/ndn"
)

func TestOrderedWriter(t *testing.T) {
	var out bytes.Buffer
	o := newOrderedWriter(&out)
	for _, s := range []struct {
		seg  uint64
		data string
	}{{2, "c"}, {0, "a"}, {0, "x"}, {3, "d"}, {1, "b"}} {
		if err := o.put(s.seg, &ndn.Data{Content: []byte(s.data)}); err != nil {
			t.Fatal(err)
		}
	}
	if out.String() != "abcd" || !o.complete(3) || o.written != 4 || len(o.held) != 0 {
		t.Fatalf("wrote %q (%d bytes), complete %t, %d held", out.String(), o.written, o.complete(3), len(o.held))
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestOrderedWriterError(t *testing.T) {
	o := newOrderedWriter(failingWriter{})
	if err := o.put(0, &ndn.Data{Content: []byte("a")}); err == nil || !strings.Contains(err.Error(), "segment 0") {
		t.Fatalf("got %v, want an error naming segment 0", err)
	}
}

func TestTraceLogsNdngetFormat(t *testing.T) {
	var cwnd, rtt bytes.Buffer
	l := NewTraceLogs(&cwnd, &rtt)
	base := 5 * time.Second
	l.Cwnd(base, 2, 200)
	l.Cwnd(base+3*time.Millisecond, 2, 200) // unchanged: no row
	l.Cwnd(base+7*time.Millisecond, 3.5, 200)
	l.RTT(base, 0, 0, 0, 0, time.Second) // ambiguous sample: no row
	l.RTT(base, 7, 1500*time.Microsecond, 2*time.Millisecond, 250*time.Microsecond, 200*time.Millisecond)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "time\tcwndsize\n0\t2\n0.007\t3.5\n"; cwnd.String() != want {
		t.Errorf("cwnd log %q, want %q", cwnd.String(), want)
	}
	if want := "segment\trtt\trttvar\tsrtt\trto\n7\t1.5\t0.25\t2\t200\n"; rtt.String() != want {
		t.Errorf("rtt log %q, want %q", rtt.String(), want)
	}
}

func TestWriteSummary(t *testing.T) {
	st := consumer.Stats{
		Start: time.Second, End: 3 * time.Second, Complete: true,
		Segments: 2500, Interests: 2600, Retransmissions: 100, Timeouts: 90, Marks: 12,
		RTTMin: 193 * time.Microsecond, RTTAvg: 2671 * time.Microsecond, RTTMax: 14667 * time.Microsecond,
	}
	st.Decreases[cc.CauseMark] = 7
	st.Decreases[cc.CauseTimeout] = 3
	st.LateData = 4
	st.SpuriousTimeouts = 5
	base := "\n\nAll segments have been received.\n" +
		"Time elapsed: 2.000000 seconds\n" +
		"Segments received: 2500\n" +
		"Transferred size: 20000 kB\n" +
		"Goodput: 80.000000 Mbit/s\n"
	for _, tt := range []struct {
		adaptive bool
		want     string
	}{
		{true, base +
			"Congestion marks: 12 (caused 7 window decreases)\n" +
			"Timeouts: 90 (caused 3 window decreases)\n" +
			"Spurious timeouts: 5 (the Data arrived before the retransmission left)\n" +
			"Retransmitted segments: 100 (3.84615%), skipped: 4\n" +
			"RTT min/avg/max = 0.193/2.671/14.667 ms\n"},
		{false, base}, // ndnget's fixed pipeline: no window counters
	} {
		var b bytes.Buffer
		WriteSummary(&b, st, 20_000_000, tt.adaptive)
		if b.String() != tt.want {
			t.Errorf("adaptive %v, summary:\n%s\nwant:\n%s", tt.adaptive, b.String(), tt.want)
		}
	}
}

func TestFormatThroughput(t *testing.T) {
	for bps, want := range map[float64]string{
		999:     "999.000000 bit/s",
		1000:    "1.000000 kbit/s",
		2.5e6:   "2.500000 Mbit/s",
		1.25e9:  "1.250000 Gbit/s",
		3e15:    "3000.000000 Tbit/s",
		0:       "0.000000 bit/s",
		123.456: "123.456000 bit/s",
	} {
		if got := FormatThroughput(bps); got != want {
			t.Errorf("FormatThroughput(%g) = %q, want %q", bps, got, want)
		}
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	prefix := ndntest.Name(t, "/rdr/object")
	versioned := prefix.Append(enc.NewVersionComponent(1700000000000000))
	d, err := MetadataData(Metadata{Versioned: versioned, LastSegment: 41, SegmentSize: 8000, Size: 330000})
	if err != nil {
		t.Fatal(err)
	}
	if want := "/rdr/object/32=metadata/v=1700000000000000/seg=0"; d.Name.String() != want {
		t.Errorf("metadata named %s, want %s", d.Name, want)
	}
	if !IsMetadataInterest(prefix, MetadataName(prefix)) || IsMetadataInterest(prefix, versioned) {
		t.Error("IsMetadataInterest misclassifies")
	}
	// ndn-tools reads the first TLV element of the Content as the Name.
	v := enc.NewBufferView(d.Content)
	if typ, _ := v.ReadTLNum(); typ != enc.TypeName {
		t.Errorf("Content starts with TLV type %#x, want a Name", uint64(typ))
	}
	got, err := ParseMetadata(prefix, d)
	if err != nil || !got.Equal(versioned) {
		t.Fatalf("parsed %s, %v; want %s", got, err, versioned)
	}
	if _, err := ParseMetadata(ndntest.Name(t, "/other"), d); !errors.Is(err, ErrBadMetadata) {
		t.Errorf("metadata of another prefix: got %v, want ErrBadMetadata", err)
	}
	d.Content = []byte{0x07, 0x05, 1}
	if _, err := ParseMetadata(prefix, d); !errors.Is(err, ErrBadMetadata) {
		t.Errorf("truncated metadata: got %v, want ErrBadMetadata", err)
	}
}
