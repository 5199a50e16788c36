package live

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// TestDatasetFIB registers routes with a real ndnd forwarder and reads
// them back from its fib/list dataset: enough routes, with long names,
// that the dataset spans several segments.
func TestDatasetFIB(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	loop, e := connect(t, fw.Unix())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go loop.Run(ctx)

	const routes = 300
	want := map[string]bool{}
	registered := make(chan error, routes)
	for i := range routes {
		name := ndntest.Name(t, fmt.Sprintf("/ndncc/dataset/a-rather-long-component-to-fill-segments/%04d", i))
		want[name.String()] = true
		loop.Post(func() { e.Register(Route{Prefix: name}, func(err error) { registered <- err }) })
	}
	for range routes {
		select {
		case err := <-registered:
			if err != nil {
				t.Fatal(err)
			}
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}

	type answer struct {
		b   []byte
		err error
	}
	got := make(chan answer, 1)
	loop.Post(func() { e.Dataset("fib", "list", func(b []byte, err error) { got <- answer{b, err} }) })
	var a answer
	select {
	case a = <-got:
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
	if len(a.b) <= 8800 {
		t.Errorf("fib/list is %d bytes: want several segments' worth", len(a.b))
	}
	fib, err := ParseFIB(a.b)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range fib {
		if want[en.Prefix.String()] {
			if len(en.Faces) != 1 {
				t.Errorf("%s has next hops %v, want the registering face", en.Prefix, en.Faces)
			}
			delete(want, en.Prefix.String())
		}
	}
	if len(want) != 0 {
		t.Errorf("%d of %d registered prefixes missing from fib/list", len(want), routes)
	}
}

// TestParseFIBRejectsGarbage checks that a malformed dataset is an error.
func TestParseFIBRejectsGarbage(t *testing.T) {
	for _, b := range [][]byte{{0x80, 0x05, 0x07}, {0x80, 0xff}} {
		if _, err := ParseFIB(b); err == nil {
			t.Errorf("ParseFIB(%x) = nil error", b)
		}
	}
}
