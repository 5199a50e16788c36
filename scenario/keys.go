package scenario

import (
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/ndncc/ndncc/topology"
)

// Keys decodes another TOML file that speaks a scenario's language: the
// same value syntax (durations, sizes, queue-params tables, a link's
// delay, jitter, bw, max-queue-size, max-queue-bytes and loss keys) and the
// same errors, "file:line: field: message", all reported together by Err.
// The `ndncc fw` configuration (live/fwd/fwconf) is decoded with it.
//
// A path names a table the way errors do ("face[0].link"); "" is the
// top level. Each decoding method reports whether the key was present and
// well typed, and leaves dst alone otherwise.
type Keys struct{ d decoder }

// NewKeys parses data, the contents of file, and returns its decoder and
// top-level table, or a positioned syntax error.
func NewKeys(data []byte, file string) (*Keys, map[string]any, error) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, nil, syntaxError(err, file)
	}
	return &Keys{d: decoder{file: file, pos: keyPositions(data, file)}}, raw, nil
}

// File returns the name of the file decoded.
func (k *Keys) File() string { return k.d.file }

// At returns the position of path, or of its nearest enclosing key.
func (k *Keys) At(path string) topology.Pos { return k.d.at(path) }

// Errorf records an error about path.
func (k *Keys) Errorf(path, format string, args ...any) { k.d.errorf(path, format, args...) }

// Err returns every error recorded, joined, or nil.
func (k *Keys) Err() error {
	if len(k.d.errs) == 0 {
		return nil
	}
	return topology.JoinErrors(k.d.errs)
}

// Known reports every key of table m (at path) not in keys as unknown.
func (k *Keys) Known(m map[string]any, path string, keys ...string) { k.d.known(m, path, keys...) }

// String decodes the string m[key].
func (k *Keys) String(m map[string]any, path, key string, dst *string) bool {
	return k.d.str(m, path, key, dst)
}

// Int decodes the integer m[key].
func (k *Keys) Int(m map[string]any, path, key string, dst *int) bool {
	return k.d.integerInt(m, path, key, dst)
}

// Int64 decodes the integer m[key].
func (k *Keys) Int64(m map[string]any, path, key string, dst *int64) bool {
	return k.d.integer(m, path, key, dst)
}

// Duration decodes the Go duration string m[key] ("300s", "10ms").
func (k *Keys) Duration(m map[string]any, path, key string, dst *time.Duration) bool {
	return k.d.duration(m, path, key, dst)
}

// Bool decodes the boolean m[key].
func (k *Keys) Bool(m map[string]any, path, key string, dst *bool) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		k.d.errorf(joinKey(path, key), "want true or false, got %s", typeName(v))
		return false
	}
	*dst = b
	return true
}

// Table returns the table m[key].
func (k *Keys) Table(m map[string]any, path, key string) (map[string]any, bool) {
	return k.d.table(m, path, key)
}

// Tables returns the array of tables m[key] ([[key]]).
func (k *Keys) Tables(m map[string]any, path, key string) []map[string]any {
	return k.d.tables(m, path, key)
}

// Params decodes the table m[key] of scalars (a queue-params table) into
// strings.
func (k *Keys) Params(m map[string]any, path, key string) (map[string]string, bool) {
	p, _, ok := k.d.params(m, path, key)
	return p, ok
}

// Prefix decodes the required NDN name m["prefix"].
func (k *Keys) Prefix(m map[string]any, path string, dst *string) {
	if !k.d.str(m, path, "prefix", dst) {
		k.d.errorf(joinKey(path, "prefix"), "required: an NDN name such as \"/example\"")
		return
	}
	if _, err := parseName(*dst); err != nil {
		k.d.errorf(joinKey(path, "prefix"), "%v", err)
	}
}

// Link decodes the link keys of table m (delay, jitter, bw,
// max-queue-size, max-queue-bytes, loss, in a Mini-NDN link line's units)
// into l, leaving the fields of keys not given as they are.
func (k *Keys) Link(m map[string]any, path string, l *topology.Link) { k.d.linkParams(m, path, l) }

// JoinKey is the path of key in the table at path ("face[0]", "link":
// "face[0].link").
func JoinKey(path, key string) string { return joinKey(path, key) }

// JoinIndex is the path of entry i of the array at path ("face", 0:
// "face[0]").
func JoinIndex(path string, i int) string { return joinIndex(path, i) }

// MergeQueue applies an override (queue, params) to an inherited
// discipline (baseQueue, baseParams), as a scenario's node and link
// queues do: "" inherits the discipline, and parameters merge key by key
// while the discipline stays the same; another discipline starts afresh.
// The map returned is new.
func MergeQueue(baseQueue string, baseParams map[string]string, queue string, params map[string]string) (string, map[string]string) {
	return mergeQueue(baseQueue, baseParams, queue, params)
}
