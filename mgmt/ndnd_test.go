package mgmt

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	"github.com/named-data/ndnd/std/engine/basic"
	ndnd "github.com/named-data/ndnd/std/ndn"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/object"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// engineFace connects ndnd's client engine to the test's forwarder: what
// the engine sends arrives on out, and deliver hands it packets.
type engineFace struct {
	running atomic.Bool
	onPkt   func([]byte)
	out     chan []byte
}

func (f *engineFace) String() string                { return "test-face" }
func (f *engineFace) IsRunning() bool               { return f.running.Load() }
func (f *engineFace) IsLocal() bool                 { return true }
func (f *engineFace) OnPacket(fn func([]byte))      { f.onPkt = fn }
func (f *engineFace) OnError(func(error))           {}
func (f *engineFace) Open() error                   { f.running.Store(true); return nil }
func (f *engineFace) Close() error                  { f.running.Store(false); return nil }
func (f *engineFace) OnUp(func()) (cancel func())   { return func() {} }
func (f *engineFace) OnDown(func()) (cancel func()) { return func() {} }
func (f *engineFace) Send(pkt enc.Wire) error       { f.out <- pkt.Join(); return nil }

var _ ndnd.Face = (*engineFace)(nil)

// ndndClient runs ndnd's engine on the harness's application face.
type ndndClient struct {
	h      *harness
	face   *engineFace
	engine ndnd.Engine
}

func newNdndClient(t *testing.T, h *harness) *ndndClient {
	c := &ndndClient{h: h, face: &engineFace{out: make(chan []byte, 64)}}
	c.engine = basic.NewEngine(c.face, basic.NewTimer())
	if err := c.engine.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.engine.Stop() })
	return c
}

// run calls fn (which blocks on ndnd's engine) in a goroutine and moves
// packets between the engine and the forwarder, on the test goroutine,
// until fn returns.
func (c *ndndClient) run(t *testing.T, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case err := <-done:
			return err
		case b := <-c.face.out:
			p, err := ndn.DecodeFrame(b)
			if err != nil {
				t.Fatalf("ndnd's engine sent %x: %v", b, err)
			}
			c.h.fwd.Receive(c.h.app.ID, p)
			c.h.s.AdvanceTo(c.h.s.Now())
			for _, q := range c.h.faces.out[c.h.app.ID].take() {
				w, err := ndn.EncodeFrame(&q)
				if err != nil {
					t.Fatal(err)
				}
				c.face.onPkt(w)
			}
		case <-deadline:
			t.Fatal("ndnd's engine got no answer in 20 s")
		}
	}
}

// TestNdndEngine: ndnd's own engine registers and unregisters a prefix,
// sets a strategy and sees a refusal, exactly as ndnd's put and nfdc do
// it; ndnd's object client fetches faces/list as nfdc does.
func TestNdndEngine(t *testing.T) {
	h := newHarness(t)
	c := newNdndClient(t, h)
	prefix := name(t, "/ndnd/put/file")
	if err := c.run(t, func() error { return c.engine.RegisterRoute(prefix) }); err != nil {
		t.Fatalf("RegisterRoute: %v", err)
	}
	if got := fibOf(t, h.fwd, "/ndnd/put/file"); got != "1/0" {
		t.Errorf("FIB after ndnd's registration = %q", got)
	}
	err := c.run(t, func() error {
		_, err := c.engine.ExecMgmtCmd("strategy-choice", "set", &nfd.ControlArgs{
			Name: prefix, Strategy: &nfd.Strategy{Name: StrategyName(fw.StrategyMulticast)}})
		return err
	})
	if err != nil || h.fwd.StrategyFor(prefix) != fw.StrategyMulticast {
		t.Errorf("strategy-choice/set: %v, strategy %s", err, h.fwd.StrategyFor(prefix))
	}
	err = c.run(t, func() error {
		_, err := c.engine.ExecMgmtCmd("faces", "destroy", &nfd.ControlArgs{FaceId: some(uint64(0))})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "400") {
		t.Errorf("faces/destroy of face 0 = %v, want a 400 error", err)
	}

	var content enc.Wire
	err = c.run(t, func() error {
		client := object.NewClient(c.engine, nil, nil)
		if err := client.Start(); err != nil {
			return err
		}
		defer client.Stop()
		ch := make(chan ndnd.ConsumeState, 1)
		client.ConsumeExt(ndnd.ConsumeExtArgs{
			Name:       append(LocalhostPrefix(), enc.NewGenericComponent("faces"), enc.NewGenericComponent("list")),
			NoMetadata: true,
			Callback:   func(s ndnd.ConsumeState) { ch <- s },
		})
		s := <-ch
		content = s.Content()
		return s.Error()
	})
	if err != nil {
		t.Fatalf("ndnd's client fetching faces/list: %v", err)
	}
	msg, err := nfd.ParseFaceStatusMsg(enc.NewWireView(content), false)
	if err != nil || len(msg.Vals) != 3 || msg.Vals[0].NInInterests < 3 {
		t.Fatalf("faces/list as ndnd read it: %v, %+v", err, msg)
	}

	if err := c.run(t, func() error { return c.engine.UnregisterRoute(prefix) }); err != nil {
		t.Fatalf("UnregisterRoute: %v", err)
	}
	if got := fibOf(t, h.fwd, "/ndnd/put/file"); got != "" {
		t.Errorf("FIB after ndnd's unregistration = %q", got)
	}
}
