package topology

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxLineBytes bounds one line of a Mini-NDN file.
const maxLineBytes = 1 << 20

// maxErrors is how many errors ParseMiniNDN reports before it stops.
const maxErrors = 20

// ParseMiniNDN reads a Mini-NDN topology file, as Mini-NDN's own loader
// reads it, and validates the result (see Topology.Validate). file names
// the input in error messages.
//
// The format is an INI file with two sections:
//
//	[nodes]
//	consumer1: _
//	a: _ radius=0.5 angle=2.46
//	[links]
//	consumer1:router1 delay=10ms bw=10
//	router1:router2 delay=10ms bw=5 max_queue_size=32 loss=1
//
// A node line is "name:" followed by "_" placeholders and key=value
// parameters, kept in Node.Params. A link line is "a:b" followed by
// key=value parameters:
//
//	delay=T           one-way propagation delay; T is a number with a unit
//	                  s, ms or us (also sec, msec, usec, secs, msecs, usecs)
//	jitter=T          each packet's delay varied uniformly within ±T, as
//	                  netem's delay jitter; packets keep their order
//	bw=N              bandwidth of each direction in Mbit/s (N > 0)
//	max_queue_size=N  output-queue limit of each direction, packets (N >= 1)
//	loss=P            random loss of each direction, percent (0..100)
//
// Absent keys take the defaults in defaults.go. Any other link key is an
// error rather than being ignored. Lines whose first non-blank character is
// '#' or ';' are comments, and '#' also starts a comment at the end of a
// line. Names are case-sensitive (Mini-NDN lowercases them; ndncc keeps them
// as written so that scenario files can name them exactly).
//
// Two more of Mini-NDN's sections load with a note (Topology.Notes): an
// empty [switches] section (a switch in it is an error: ndncc models hosts
// joined by point-to-point links), and [faces], NLSR's neighbour faces
// ("a:b cost=N" or "a:b _"), checked and ignored, since ndncc routes over
// every link itself.
//
// Every error reads "file:line: field: message"; all problems found are
// reported, joined, in line order.
func ParseMiniNDN(r io.Reader, file string) (*Topology, error) {
	p := miniNDNParser{file: file, t: &Topology{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	for !p.stopped && sc.Scan() {
		p.line++
		p.parseLine(sc.Text())
		if len(p.errs) >= maxErrors {
			p.stop("%d errors; stopped reading", len(p.errs))
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("line longer than %d bytes", maxLineBytes)
		}
		p.line++ // the line that could not be read
		p.errorf("", "%w", err)
		return nil, JoinErrors(p.errs)
	}
	if p.stopped {
		return nil, JoinErrors(p.errs)
	}
	p.endSection()
	if !p.seen["nodes"] {
		p.errs = append(p.errs, Errorf(Pos{File: file}, "nodes", "missing [nodes] section"))
	} else if len(p.t.Nodes) == 0 && len(p.errs) == 0 {
		p.errs = append(p.errs, Errorf(Pos{File: file}, "nodes", "the [nodes] section declares no node"))
	}
	if len(p.errs) > 0 {
		return nil, JoinErrors(p.errs)
	}
	if err := p.t.Validate(); err != nil {
		return nil, err
	}
	return p.t, nil
}

// miniNDNParser holds the state of one ParseMiniNDN call.
type miniNDNParser struct {
	file    string
	line    int
	section string
	// sectionLine and sectionLines are where the current section starts
	// and how many entries it has.
	sectionLine, sectionLines int
	seen                      map[string]bool
	t                         *Topology
	errs                      []error
	stopped                   bool // reading was abandoned (see stop)
}

func (p *miniNDNParser) pos() Pos { return Pos{File: p.file, Line: p.line} }

func (p *miniNDNParser) errorf(field, format string, args ...any) {
	p.errs = append(p.errs, Errorf(p.pos(), field, format, args...))
}

// stop reports an error at the current line and abandons the file: it is
// no topology, or too broken for more errors to help.
func (p *miniNDNParser) stop(format string, args ...any) {
	p.errorf("", format, args...)
	p.stopped = true
}

func (p *miniNDNParser) parseLine(text string) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, ";") {
		return
	}
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	if text != "" && !strings.HasPrefix(text, "[") {
		p.sectionLines++
	}
	switch {
	case text == "":
	case strings.HasPrefix(text, "["):
		p.parseSection(text)
	case p.section == "nodes":
		p.parseNode(text)
	case p.section == "links":
		p.parseLink(text)
	case p.section == "switches":
		p.errorf("switches", "switch %.40q: switches are not supported (ndncc models hosts joined by point-to-point links)", text)
	case p.section == "faces":
		p.parseFace(text)
	case p.section == "":
		// Not quoted: a file that is no topology at all (a path typed
		// wrong, or a file chosen to be read) must not be echoed back.
		p.stop("not a Mini-NDN topology file: text outside any section (expected [nodes] or [links] first)")
	}
	// Lines of a rejected section were reported with its header.
}

func (p *miniNDNParser) parseSection(text string) {
	if !strings.HasSuffix(text, "]") {
		p.errorf("section", "unterminated section header %q", text)
		p.section = "invalid"
		return
	}
	name := strings.TrimSpace(text[1 : len(text)-1])
	p.endSection()
	switch name {
	case "nodes", "links", "switches", "faces":
	default:
		p.errorf("section", "unknown section [%s] (expected [nodes], [links], [switches] or [faces])", name)
		p.section = "invalid"
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if p.seen[name] {
		p.errorf("section", "section [%s] appears twice", name)
	}
	p.seen[name] = true
	p.section = name
	p.sectionLine, p.sectionLines = p.line, 0
}

// endSection adds the note about the section just read, if it gets one.
func (p *miniNDNParser) endSection() {
	at := Pos{File: p.file, Line: p.sectionLine}
	switch p.section {
	case "switches":
		if p.sectionLines == 0 {
			p.t.Notes = append(p.t.Notes, at.String()+": [switches] is empty: ignored")
		}
	case "faces":
		p.t.Notes = append(p.t.Notes, fmt.Sprintf("%s: [faces] (%d NLSR neighbour faces) ignored: ndncc routes over every link itself", at, p.sectionLines))
	}
	p.section = ""
}

// parseFace checks a [faces] line: "a:b", then "cost=N" or "_".
func (p *miniNDNParser) parseFace(text string) {
	fields := strings.Fields(text)
	a, b, ok := strings.Cut(fields[0], ":")
	if !ok || a == "" || b == "" {
		p.errorf("faces", "expected \"a:b cost=N\" or \"a:b _\", got %.40q", fields[0])
		return
	}
	for _, tok := range fields[1:] {
		if tok == "_" {
			continue
		}
		k, v, ok := strings.Cut(tok, "=")
		if _, err := strconv.Atoi(v); !ok || k != "cost" || err != nil {
			p.errorf("faces", "expected cost=N (an integer) or _, got %.40q", tok)
		}
	}
}

func (p *miniNDNParser) parseNode(text string) {
	name, rest, ok := strings.Cut(text, ":")
	if !ok {
		p.errorf("nodes", "expected \"name: _\" or \"name: key=value ...\", got %.40q", text)
		return
	}
	n := Node{Name: strings.TrimSpace(name), Pos: p.pos()}
	for _, tok := range strings.Fields(rest) {
		if tok == "_" {
			continue
		}
		k, v, ok := strings.Cut(tok, "=")
		if !ok || k == "" {
			p.errorf("nodes", "expected key=value, got %.40q", tok)
			continue
		}
		if _, dup := n.Params[k]; dup {
			p.errorf(k, "given twice for node %q", n.Name)
			continue
		}
		if n.Params == nil {
			n.Params = map[string]string{}
		}
		n.Params[k] = v
	}
	p.t.Nodes = append(p.t.Nodes, n)
}

func (p *miniNDNParser) parseLink(text string) {
	fields := strings.Fields(text)
	a, b, ok := strings.Cut(fields[0], ":")
	if !ok || a == "" || b == "" || strings.Contains(b, ":") {
		p.errorf("links", "expected \"a:b key=value ...\", got %.40q", fields[0])
		return
	}
	l := NewLink(a, b)
	l.Pos = p.pos()
	given := map[string]bool{}
	for _, tok := range fields[1:] {
		k, v, ok := strings.Cut(tok, "=")
		if !ok || k == "" {
			p.errorf("links", "expected key=value, got %.40q", tok)
			continue
		}
		if given[k] {
			p.errorf(k, "given twice for link %s", l)
			continue
		}
		given[k] = true
		if err := setLinkParam(&l, k, v); err != nil {
			p.errorf(k, "%w", err)
		}
	}
	p.t.Links = append(p.t.Links, l)
}

// setLinkParam applies one Mini-NDN link parameter to l.
func setLinkParam(l *Link, key, val string) error {
	switch key {
	case "delay":
		d, err := ParseNetemTime(val)
		if err != nil {
			return err
		}
		l.Delay = d
	case "bw":
		mbps, err := parseFinite(val)
		if err != nil {
			return err
		}
		if mbps <= 0 {
			return fmt.Errorf("must be a positive number of Mbit/s, got %q (leave bw out for an unlimited link)", val)
		}
		l.Bandwidth = mbps * 1e6
	case "max_queue_size":
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("invalid integer %q", val)
		}
		if n < 1 {
			return fmt.Errorf("must be at least 1 packet, got %d", n)
		}
		l.QueuePackets = n
	case "loss":
		pct, err := parseFinite(val)
		if err != nil {
			return err
		}
		if pct < 0 || pct > 100 {
			return fmt.Errorf("must be a percentage between 0 and 100, got %q", val)
		}
		l.Loss = pct / 100
	case "jitter":
		d, err := ParseNetemTime(val)
		if err != nil {
			return err
		}
		l.Jitter = d
	default:
		return fmt.Errorf("unknown link parameter (supported: delay, jitter, bw, max_queue_size, loss)")
	}
	return nil
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("invalid number %q", s)
	}
	return v, nil
}

// ParseNetemTime parses a non-negative time the way tc-netem writes it: a
// decimal number followed by a unit s, ms or us (or sec/secs, msec/msecs,
// usec/usecs, in any case), such as "10ms" or "1.5s". Unlike tc it
// requires the unit, because a bare number (microseconds to tc) is almost
// always a mistake in a topology file.
func ParseNetemTime(s string) (time.Duration, error) {
	i := strings.IndexFunc(s, func(r rune) bool {
		return !strings.ContainsRune("0123456789.+-", r)
	})
	if i <= 0 {
		return 0, fmt.Errorf("invalid time %q (expected a number with a unit s, ms or us, such as 10ms)", s)
	}
	var unit time.Duration
	switch strings.ToLower(s[i:]) {
	case "s", "sec", "secs":
		unit = time.Second
	case "ms", "msec", "msecs":
		unit = time.Millisecond
	case "us", "usec", "usecs":
		unit = time.Microsecond
	default:
		return 0, fmt.Errorf("invalid time %q: unknown unit %q (use s, ms or us)", s, s[i:])
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("invalid time %q", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("must not be negative, got %q", s)
	}
	d := v * float64(unit)
	if d >= math.MaxInt64 {
		return 0, fmt.Errorf("time %q is too large", s)
	}
	return time.Duration(math.Round(d)), nil
}
