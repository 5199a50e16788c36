//go:build !race

package fwd

// raceDetector: see race_test.go.
const raceDetector = false
