package report

import (
	"strings"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/experiment"
)

// metricLabel is the axis label of a column: its header, with the unit
// added when the header names none. A header with a unit in parentheses
// or a percent sign keeps it; otherwise a whole-number column ("%.0f",
// such as timeouts or marks) counts packets in a queue or events, and
// any other is a ratio (a share, a fairness index).
func metricLabel(c experiment.Column) string {
	h := c.Header
	switch {
	case strings.Contains(h, "("):
		return h
	case strings.HasSuffix(h, "%"):
		return strings.TrimSpace(strings.TrimSuffix(h, "%")) + " (%)"
	case strings.Contains(h, "queue"):
		return h + " (packets)"
	case c.Fmt() == "%.0f":
		return h + " (count)"
	}
	return h + " (ratio)"
}

// keyLabel is the axis label of a swept scenario key (docs/scenario.md,
// "Setting keys"): the key and the unit its values are written in, as
// in "links.r1-r2.bw (Mbit/s)". A key whose values are names (a
// pipeline, a queue discipline) has no unit and is returned as it is.
func keyLabel(key string) string {
	if u := keyUnit(key); u != "" {
		return key + " (" + u + ")"
	}
	return key
}

// keyUnit is the unit of a scenario key's values, "" for names.
func keyUnit(key string) string {
	last := lastKey(key)
	if i := strings.Index(key, ".params."); i >= 0 {
		return paramUnit(key[i+len(".params."):])
	}
	switch {
	case last == "bw" || strings.HasSuffix(last, "-mbps"):
		return "Mbit/s"
	case last == "loss":
		return "%"
	case last == "max-queue-size" || last == "max_queue_size" || last == "cs-capacity" || strings.HasSuffix(last, "-queue"):
		return "packets"
	case last == "max-queue-bytes" || last == "file-size" || last == "segment-size" || last == "size" ||
		last == "mss" || last == "header-overhead" || last == "tcp-send-buffer":
		return "bytes"
	case last == "delay" || last == "jitter" || last == "duration" || last == "start" || last == "freshness":
		return "duration"
	case last == "seed":
		return "seed"
	}
	return ""
}

// paramUnit is the unit of pipeline parameter name, from its
// documentation: a duration, segments, or none (a gain or factor).
func paramUnit(name string) string {
	docs := consumer.ParamDocs()
	for _, p := range cc.Pipelines() {
		docs = append(docs, cc.Describe(p)...)
	}
	for _, d := range docs {
		if d.Name != name {
			continue
		}
		switch {
		case d.Duration:
			return "duration"
		case strings.Contains(d.Doc, "segments/s^3"):
			return "segments/s³"
		case strings.Contains(d.Doc, "segments"):
			return "segments"
		case strings.Contains(d.Doc, "probability"):
			return "probability"
		}
		return "factor"
	}
	return ""
}
