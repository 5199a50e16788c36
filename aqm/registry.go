package aqm

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Param describes one discipline parameter for documentation and --help.
type Param struct {
	Name    string // kebab-case name, as given to New
	Default string // default value, in the syntax New accepts
	Doc     string // one line
}

// Info describes a queue discipline.
type Info struct {
	Name   string  // name, as given to New
	Doc    string  // one line
	Params []Param // accepted parameters, in display order
}

// String renders the discipline as a small help block: its name and doc,
// then one indented line per parameter with its default.
func (i Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", i.Name, i.Doc)
	for _, p := range i.Params {
		fmt.Fprintf(&b, "    %s (default %s): %s\n", p.Name, p.Default, p.Doc)
	}
	return b.String()
}

// discipline is one entry of the catalog: its description and how to build
// it from validated parameters.
type discipline struct {
	Info
	build func(v paramValues, lim Limits) (Queue, error)
}

// catalog returns the disciplines New knows, in the order Disciplines lists
// them.
func catalog() []discipline {
	paramTarget := Param{"target", DefaultCoDelTarget.String(),
		"acceptable standing queue delay (sojourn time)"}
	paramCoDelInterval := Param{"interval", DefaultCoDelInterval.String(),
		"time the delay must stay at or above target before acting; base spacing of the control law"}
	paramMTU := Param{"mtu", strconv.Itoa(DefaultMTU),
		"bytes: never drop or mark while at most this much stays queued (0 disables)"}
	paramThresholdBytes := Param{"threshold-bytes", strconv.Itoa(DefaultThresholdBytes),
		"mark while more than this many bytes stay queued behind the sent packet (at most half the byte limit, if any)"}
	paramThresholdPackets := Param{"threshold-packets", "0",
		"if positive, measure the backlog in packets instead, at most half the packet limit if any (0 = use threshold-bytes)"}
	paramSocketThreshold := Param{"socket-threshold-bytes", "0",
		"with threshold-packets: also mark while more than this many bytes wait in the socket below the queue (TCP tunnels, paper 002; 0 = off)"}
	paramMarkInterval := Param{"interval", DefaultMarkInterval.String(),
		"how long the backlog stays above the threshold before the first mark; the k-th mark follows the previous one after interval/sqrt(k+1) (marking = spaced)"}
	paramMarking := Param{"marking", MarkSpaced.String(),
		"spaced: NFD's marks, the first after interval above the threshold; every: mark every packet sent while above the threshold (paper 002's hackathon NFD)"}
	codel := func(mode Mode) func(v paramValues, lim Limits) (Queue, error) {
		return func(v paramValues, lim Limits) (Queue, error) {
			p := DefaultCoDelParams()
			if err := v.duration(paramTarget.Name, &p.Target); err != nil {
				return nil, err
			}
			if err := v.duration(paramCoDelInterval.Name, &p.Interval); err != nil {
				return nil, err
			}
			if err := v.integer(paramMTU.Name, &p.MTU); err != nil {
				return nil, err
			}
			return NewCoDel(mode, p, lim)
		}
	}
	return []discipline{
		{
			Info: Info{Name: "droptail", Doc: "FIFO that drops arrivals beyond the queue limits"},
			build: func(_ paramValues, lim Limits) (Queue, error) {
				return NewDropTail(lim)
			},
		},
		{
			Info: Info{Name: "codel-drop", Doc: "CoDel (RFC 8289) dropping at dequeue, plus the queue limits",
				Params: []Param{paramTarget, paramCoDelInterval, paramMTU}},
			build: codel(Drop),
		},
		{
			Info: Info{Name: "codel-mark", Doc: "CoDel (RFC 8289) setting the NDNLPv2 CongestionMark instead of dropping, plus the queue limits",
				Params: []Param{paramTarget, paramCoDelInterval, paramMTU}},
			build: codel(Mark),
		},
		{
			Info: Info{Name: "threshold-mark", Doc: "NFD-style marking by send-queue backlog (UDP/TCP/Unix faces), plus the queue limits",
				Params: []Param{paramThresholdBytes, paramThresholdPackets, paramSocketThreshold, paramMarkInterval, paramMarking}},
			build: func(v paramValues, lim Limits) (Queue, error) {
				p := DefaultBacklogParams()
				if err := v.integer(paramThresholdBytes.Name, &p.ThresholdBytes); err != nil {
					return nil, err
				}
				if err := v.integer(paramThresholdPackets.Name, &p.ThresholdPackets); err != nil {
					return nil, err
				}
				if err := v.integer(paramSocketThreshold.Name, &p.SocketThresholdBytes); err != nil {
					return nil, err
				}
				if err := v.duration(paramMarkInterval.Name, &p.Interval); err != nil {
					return nil, err
				}
				if err := v.marking(paramMarking.Name, &p.Marking); err != nil {
					return nil, err
				}
				return NewBacklogMarker(p, lim)
			},
		},
	}
}

// Disciplines returns the names New accepts.
func Disciplines() []string {
	cat := catalog()
	names := make([]string, len(cat))
	for i, d := range cat {
		names[i] = d.Name
	}
	return names
}

// Describe returns the description of the named discipline and its
// parameters with their defaults.
func Describe(name string) (Info, error) {
	d, err := lookup(name)
	if err != nil {
		return Info{}, err
	}
	return d.Info, nil
}

// New builds a queue of the named discipline. params sets discipline
// parameters by kebab-case name (see Describe); values are Go durations
// ("5ms"), decimal integers (bytes, packets) or, for threshold-mark's
// marking, a word (spaced, every). Parameters not given keep
// their defaults. An unknown discipline or parameter, or a bad value, is an
// error that lists what is accepted.
func New(discipline string, params map[string]string, lim Limits) (Queue, error) {
	d, err := lookup(discipline)
	if err != nil {
		return nil, err
	}
	accepted := make([]string, len(d.Params))
	for i, p := range d.Params {
		accepted[i] = p.Name
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(accepted, k) {
			return nil, fmt.Errorf("aqm: discipline %q has no parameter %q (accepted: %s)",
				discipline, k, listOrNone(accepted))
		}
	}
	return d.build(paramValues{discipline: discipline, m: params}, lim)
}

// lookup finds a discipline by name.
func lookup(name string) (discipline, error) {
	for _, d := range catalog() {
		if d.Name == name {
			return d, nil
		}
	}
	return discipline{}, fmt.Errorf("aqm: unknown queue discipline %q (accepted: %s)",
		name, strings.Join(Disciplines(), ", "))
}

// listOrNone joins names with commas, or says "none".
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// paramValues are the raw parameter strings given to New.
type paramValues struct {
	discipline string
	m          map[string]string
}

// duration parses parameter name into *dst if it was given.
func (v paramValues) duration(name string, dst *time.Duration) error {
	s, ok := v.m[name]
	if !ok {
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("aqm: %s parameter %s=%q: want a duration such as 5ms or 100ms: %w", v.discipline, name, s, err)
	}
	*dst = d
	return nil
}

// integer parses parameter name into *dst if it was given.
func (v paramValues) integer(name string, dst *int) error {
	s, ok := v.m[name]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("aqm: %s parameter %s=%q: want a decimal integer: %w", v.discipline, name, s, err)
	}
	*dst = n
	return nil
}

// marking parses parameter name into *dst if it was given.
func (v paramValues) marking(name string, dst *Marking) error {
	s, ok := v.m[name]
	if !ok {
		return nil
	}
	m, err := ParseMarking(s)
	if err != nil {
		return fmt.Errorf("aqm: %s parameter %s: %w", v.discipline, name, err)
	}
	*dst = m
	return nil
}
