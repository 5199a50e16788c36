package scenario

import (
	"slices"
	"strconv"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/ndncc/ndncc/topology"
)

// keyPositions maps every key and array element of a TOML document to the
// line it is on. Paths are written the way error messages name fields:
// keys joined with ".", array elements as "[i]" ("consumer[0].params.window",
// "topology.links[1].bw"); a table's path maps to its header line. data must
// already be known to be valid TOML.
func keyPositions(data []byte, file string) map[string]topology.Pos {
	ix := positionIndex{file: file, pos: map[string]topology.Pos{}, count: map[string]int{}}
	for i, c := range data {
		if c == '\n' {
			ix.newlines = append(ix.newlines, i)
		}
	}
	ix.p.Reset(data)
	current := ""
	for ix.p.NextExpression() {
		e := ix.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			current = ix.header(e)
		case unstable.KeyValue:
			ix.keyValue(current, e)
		}
	}
	return ix.pos
}

// positionIndex is the state of one keyPositions call.
type positionIndex struct {
	file  string
	p     unstable.Parser
	pos   map[string]topology.Pos
	count map[string]int // array-of-tables path → elements seen so far
	// newlines holds the offset of every '\n' in the document.
	newlines []int
}

// line returns the position of the start of r: one more than the number of
// newlines before it.
func (ix *positionIndex) line(r unstable.Range) topology.Pos {
	n, _ := slices.BinarySearch(ix.newlines, int(r.Offset))
	return topology.Pos{File: ix.file, Line: n + 1}
}

// header records a [table] or [[array table]] header and returns the path
// of the table it opens. A name part that is an array of tables refers to
// its last element, as in TOML.
func (ix *positionIndex) header(e *unstable.Node) string {
	var parts []string
	var at topology.Pos
	it := e.Key()
	for it.Next() {
		if len(parts) == 0 {
			at = ix.line(it.Node().Raw)
		}
		parts = append(parts, string(it.Node().Data))
	}
	path := ""
	for i, k := range parts {
		path = joinKey(path, k)
		if n := ix.count[path]; n > 0 && i < len(parts)-1 {
			path = joinIndex(path, n-1)
		}
	}
	if e.Kind == unstable.ArrayTable {
		n := ix.count[path]
		ix.count[path] = n + 1
		if n == 0 {
			ix.pos[path] = at
		}
		path = joinIndex(path, n)
	}
	ix.pos[path] = at
	return path
}

// keyValue records a (possibly dotted) key under base and its value.
func (ix *positionIndex) keyValue(base string, kv *unstable.Node) {
	path := base
	var at topology.Pos
	it := kv.Key()
	for it.Next() {
		path = joinKey(path, string(it.Node().Data))
		at = ix.line(it.Node().Raw)
		if _, ok := ix.pos[path]; !ok {
			ix.pos[path] = at
		}
	}
	ix.value(path, kv.Value(), at)
}

// value records the keys of an inline table and the elements of an array.
func (ix *positionIndex) value(path string, v *unstable.Node, at topology.Pos) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if it.Node().Kind == unstable.KeyValue {
				ix.keyValue(path, it.Node())
			}
		}
	case unstable.Array:
		i := 0
		it := v.Children()
		for it.Next() {
			el := it.Node()
			if el.Kind == unstable.Comment {
				continue
			}
			elPath := joinIndex(path, i)
			elAt := ix.nodePos(el, at)
			ix.pos[elPath] = elAt
			ix.value(elPath, el, elAt)
			i++
		}
	}
}

// nodePos returns the line of a value node, or of its first element for an
// array, or fallback.
func (ix *positionIndex) nodePos(n *unstable.Node, fallback topology.Pos) topology.Pos {
	if n.Raw.Length > 0 {
		return ix.line(n.Raw)
	}
	if n.Kind == unstable.Array {
		if c := n.Child(); c.Valid() {
			return ix.nodePos(c, fallback)
		}
	}
	return fallback
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func joinIndex(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
