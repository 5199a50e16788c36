package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// workProgress reports long work on standard error, never on standard
// output (which may be a JSON document): a bar on a terminal, and
// otherwise one line per finished unit of work, such as
//
//	[3/12] seed000-linear design1 run 2: 37.6 s (sim)
//
// It is silent when quiet, and when standard error is not a file (a
// test's buffer). Its methods may be called from several goroutines.
type workProgress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar // on a terminal
	lines io.Writer                // otherwise; nil: silent
	done  int
	total int
}

// newWorkProgress returns the progress of total units of work described by
// what (the bar's title), written to w.
func newWorkProgress(w io.Writer, quiet bool, total int, what string) *workProgress {
	p := &workProgress{total: total}
	f, ok := w.(*os.File)
	if quiet || !ok || total <= 0 {
		return p
	}
	if !term.IsTerminal(int(f.Fd())) {
		p.lines = f
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

// Done records one finished unit of work: what it was, how long it took
// and how it ran ("sim", "live").
func (p *workProgress) Done(what string, took time.Duration, mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	switch {
	case p.bar != nil:
		_ = p.bar.Add(1)
	case p.lines != nil:
		fmt.Fprintf(p.lines, "[%d/%d] %s: %.1f s (%s)\n", p.done, p.total, what, took.Seconds(), mode)
	}
}

// Finish removes the bar.
func (p *workProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// timeBar shows, on a terminal, how much of a real-time run of limit has
// passed, and otherwise prints one line when it ends. Stop ends it.
type timeBar struct {
	p     *workProgress
	what  string
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

// newTimeBar starts the bar of a run of at most limit, described by what.
func newTimeBar(w io.Writer, quiet bool, limit time.Duration, what string) *timeBar {
	b := &timeBar{what: what, start: time.Now(), stop: make(chan struct{})}
	secs := max(int(limit.Seconds()), 1)
	b.p = newWorkProgress(w, quiet, secs, what)
	if b.p.bar == nil {
		b.p.total = 1 // a line for the one run
		return b
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.p.mu.Lock()
				if s := int(time.Since(b.start).Seconds()); s <= secs {
					_ = b.p.bar.Set(s)
				}
				b.p.mu.Unlock()
			}
		}
	}()
	return b
}

// Stop ends the bar, or prints the run's line.
func (b *timeBar) Stop() {
	close(b.stop)
	b.wg.Wait()
	if b.p.bar != nil {
		b.p.Finish()
		return
	}
	b.p.Done(b.what, time.Since(b.start), "live")
}
