package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// faultProxy sits on a Unix socket between a client and a forwarder's
// socket and passes every frame (one NDN or NDNLPv2 TLV) through a fault
// function, which may drop it, delay it (so that later frames overtake
// it) or replace it. It is the path a fault-injection test controls.
type faultProxy struct {
	socket   string
	upstream string // the forwarder's Unix socket
	fault    func(toClient bool, frame []byte) (out []byte, delay time.Duration)
	ln       net.Listener
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
}

// startFaultProxy listens on a fresh socket in dir and forwards to the
// forwarder at upstream (a unix:// URI) until the test ends. fault
// returns the frame to pass on (nil: drop it) and how long to hold it.
func startFaultProxy(t *testing.T, upstream string, fault func(toClient bool, frame []byte) ([]byte, time.Duration)) *faultProxy {
	t.Helper()
	p := &faultProxy{socket: filepath.Join(shortTempDir(t), "proxy.sock"), upstream: upstream[len("unix://"):], fault: fault}
	ln, err := net.Listen("unix", p.socket)
	if err != nil {
		t.Fatal(err)
	}
	p.ln = ln
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// URI is the transport URI of the proxy.
func (p *faultProxy) URI() string { return "unix://" + p.socket }

func (p *faultProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("unix", p.upstream)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, up, false)
		go p.pipe(up, c, true)
	}
}

// pipe copies frames from src to dst through the fault function; a held
// frame is written by its own timer, so frames behind it overtake it.
func (p *faultProxy) pipe(src, dst net.Conn, toClient bool) {
	defer p.wg.Done()
	defer dst.Close()
	var wmu sync.Mutex
	write := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		dst.Write(b)
	}
	r := bufio.NewReaderSize(src, 64<<10)
	for {
		frame, err := readFrame(r)
		if err != nil {
			return
		}
		out, delay := p.fault(toClient, frame)
		switch {
		case out == nil:
		case delay > 0:
			time.AfterFunc(delay, func() { write(out) })
		default:
			write(out)
		}
	}
}

func (p *faultProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// readFrame reads one TLV element (type and length as NDN variable-size
// numbers) and returns it whole.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var head []byte
	var length uint64
	for i := range 2 {
		first, err := r.ReadByte()
		if err != nil {
			return nil, err
		}
		head = append(head, first)
		n := map[byte]int{253: 2, 254: 4, 255: 8}[first]
		v := uint64(first)
		if n > 0 {
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return nil, err
			}
			head = append(head, b...)
			v = 0
			for _, x := range b {
				v = v<<8 | uint64(x)
			}
		}
		if i == 1 {
			length = v
		}
	}
	if length > 1<<20 {
		return nil, errors.New("frame too long")
	}
	frame := make([]byte, len(head)+int(length))
	copy(frame, head)
	_, err := io.ReadFull(r, frame[len(head):])
	return frame, err
}

// redigest replaces a Data frame by one with other content and a fresh
// DigestSha256, as a man in the middle can; other frames pass unchanged.
func redigest(frame []byte) []byte {
	pkt, err := ndn.DecodeFrame(frame)
	if err != nil || pkt.Data == nil {
		return frame
	}
	d := &ndn.Data{Name: pkt.Data.Name, Content: append([]byte("tampered "), pkt.Data.Content...),
		Freshness: pkt.Data.Freshness, FinalBlockID: pkt.Data.FinalBlockID, HasFinal: pkt.Data.HasFinal}
	if _, err := ndn.EncodeData(d, nil); err != nil {
		panic(fmt.Sprintf("re-digest %s: %v", d.Name, err))
	}
	out, err := ndn.EncodeFrame(&ndn.Packet{Data: d})
	if err != nil {
		panic(fmt.Sprintf("re-encode %s: %v", d.Name, err))
	}
	return out
}

// segmentOf returns the segment number a Data frame carries, if it is one.
func segmentOf(frame []byte) (uint64, bool) {
	pkt, err := ndn.DecodeFrame(frame)
	if err != nil || pkt.Data == nil {
		return 0, false
	}
	return ndn.SegmentOf(pkt.Data.Name)
}

// seededRand is a small deterministic random source for fault decisions,
// safe for the proxy's goroutines.
type seededRand struct {
	mu sync.Mutex
	x  uint64
}

func (s *seededRand) float() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.x ^= s.x << 13
	s.x ^= s.x >> 7
	s.x ^= s.x << 17
	return float64(s.x>>11) / (1 << 53)
}
