package topology

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Pos is a position in a configuration file: the file name as given by the
// caller and a 1-based line number. The zero Pos means "not from a file"
// (a topology or scenario built in Go).
type Pos struct {
	File string
	Line int
}

// String formats p as "file:line". It omits what is unknown: "file" when
// Line is 0, "line N" when File is empty, and "" for the zero Pos.
func (p Pos) String() string {
	switch {
	case p.Line <= 0:
		return p.File
	case p.File == "":
		return "line " + strconv.Itoa(p.Line)
	default:
		return p.File + ":" + strconv.Itoa(p.Line)
	}
}

// Error is a configuration error: what is wrong (Err), in which field, and
// where. Its message reads "file:line: field: message"; the position or the
// field is left out when unknown.
type Error struct {
	Pos   Pos
	Field string
	Err   error
}

// Errorf returns an *Error at pos about field with a formatted message.
func Errorf(pos Pos, field, format string, args ...any) *Error {
	return &Error{Pos: pos, Field: field, Err: fmt.Errorf(format, args...)}
}

// Error implements error.
func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if p := e.Pos.String(); p != "" {
		msg = p + ": " + msg
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// JoinErrors sorts errs by file and line (stable, so errors at one position
// keep their order) and joins them with errors.Join; it returns nil when
// errs is empty. Within a file, errors without a line come after those with
// one; errors that are not *Error come first.
func JoinErrors(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		pa, pb := errPos(a), errPos(b)
		if pa.File != pb.File {
			if pa.File < pb.File {
				return -1
			}
			return 1
		}
		return cmp.Compare(lineKey(pa.Line), lineKey(pb.Line))
	})
	return errors.Join(errs...)
}

// lineKey orders line 0 ("the whole file") after every real line.
func lineKey(line int) int {
	if line <= 0 {
		return math.MaxInt
	}
	return line
}

func errPos(err error) Pos {
	var e *Error
	if errors.As(err, &e) {
		return e.Pos
	}
	return Pos{}
}
