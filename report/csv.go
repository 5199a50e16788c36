package report

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// maxLineBytes bounds one CSV line; trace lines are under 100 bytes.
const maxLineBytes = 64 * 1024

// readCSV reads a numeric CSV trace whose first line is a header. It
// returns one slice per requested column, in the order of want; the
// header may hold further columns, which are ignored, in any order. Every
// error names the file and the line.
func readCSV(path string, want ...string) ([][]float64, error) {
	return readColumns(path, nil, want...)
}

// readColumns is readCSV, but the columns in infinite may hold +Inf
// ("+Inf" or "inf": an initial slow-start threshold with no limit).
func readColumns(path string, infinite map[string]bool, want ...string) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s:1: %w", path, err)
		}
		return nil, fmt.Errorf("%s:1: empty file, want header %q", path, strings.Join(want, ","))
	}
	header := strings.Split(strings.TrimSuffix(sc.Text(), "\r"), ",")
	idx, err := columnIndexes(header, want)
	if err != nil {
		return nil, fmt.Errorf("%s:1: %w", path, err)
	}
	cols := make([][]float64, len(want))
	fields := make([]string, 0, len(header))
	line := 1
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" {
			return nil, fmt.Errorf("%s:%d: empty line", path, line)
		}
		fields = splitComma(fields[:0], text)
		if len(fields) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", path, line, len(fields), len(header), strings.Join(header, ","))
		}
		for c, i := range idx {
			x, err := strconv.ParseFloat(fields[i], 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, -1) || (math.IsInf(x, 1) && !infinite[want[c]]) {
				return nil, fmt.Errorf("%s:%d: column %s: %q is not a finite number", path, line, want[c], fields[i])
			}
			cols[c] = append(cols[c], x)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", path, line+1, maxLineBytes)
		}
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return cols, nil
}

// columnIndexes finds each wanted column in header.
func columnIndexes(header, want []string) ([]int, error) {
	idx := make([]int, len(want))
	for c, name := range want {
		idx[c] = -1
		for i, h := range header {
			if strings.TrimSpace(h) == name {
				idx[c] = i
				break
			}
		}
		if idx[c] < 0 {
			return nil, fmt.Errorf("header %q has no column %q", strings.Join(header, ","), name)
		}
	}
	return idx, nil
}

// splitComma appends the comma-separated fields of s to dst.
func splitComma(dst []string, s string) []string {
	for {
		i := strings.IndexByte(s, ',')
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i+1:]
	}
}

// readRecords reads a CSV trace whose columns are not known in advance
// (forwarding-NODE.csv has one per neighbour): its header and every
// record, as text. Every record has the header's number of fields; every
// error names the file and the line.
func readRecords(path string) (header []string, records [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read trace: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, nil, fmt.Errorf("%s:1: %w", path, err)
		}
		return nil, nil, fmt.Errorf("%s:1: empty file, want a header", path)
	}
	header = strings.Split(strings.TrimSuffix(sc.Text(), "\r"), ",")
	line := 1
	for sc.Scan() {
		line++
		fields := splitComma(nil, strings.TrimSuffix(sc.Text(), "\r"))
		if len(fields) != len(header) {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", path, line, len(fields), len(header), strings.Join(header, ","))
		}
		records = append(records, fields)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("%s:%d: line longer than %d bytes", path, line+1, maxLineBytes)
		}
		return nil, nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return header, records, nil
}

// number parses a field of record line (1-based, for errors) of path;
// an empty field is NaN (no value in that interval).
func number(path string, line int, column, field string) (float64, error) {
	if field == "" {
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(field, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s:%d: column %s: %q is not a finite number", path, line, column, field)
	}
	return x, nil
}
