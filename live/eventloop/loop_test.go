package eventloop

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestLoopRunsTimersInOrder(t *testing.T) {
	l := New()
	var got []string
	l.After(30*time.Millisecond, func() { got = append(got, "c") })
	l.After(10*time.Millisecond, func() { got = append(got, "a") })
	l.After(10*time.Millisecond, func() { got = append(got, "b") }) // same time: FIFO
	stopped := l.After(20*time.Millisecond, func() { got = append(got, "never") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once, then false")
	}
	l.After(40*time.Millisecond, func() {
		got = append(got, "d")
		l.After(-time.Second, func() { // negative: as soon as possible
			got = append(got, "e")
			l.Stop(nil)
		})
	})
	start := time.Now()
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Fatalf("finished after %v, before the last timer's 40 ms", el)
	}
}

func TestLoopTimerStopAfterRun(t *testing.T) {
	l := New()
	tm := l.After(0, func() { l.Stop(nil) })
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if tm.Stop() {
		t.Fatal("Stop of a timer that ran reported true")
	}
}

func TestLoopPostAndContext(t *testing.T) {
	l := New()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		l.Post(func() { close(ran) })
		<-ran
		cancel()
	}()
	err := l.Run(ctx)
	if !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want ErrStopped and context.Canceled", err)
	}
}

func TestLoopStopKeepsFirstError(t *testing.T) {
	l := New()
	first, second := errors.New("first"), errors.New("second")
	l.After(0, func() {
		l.Stop(first)
		l.Stop(second)
	})
	if err := l.Run(context.Background()); err != first {
		t.Fatalf("Run returned %v, want %v", err, first)
	}
}
