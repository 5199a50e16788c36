//go:build race

package fwd

// raceDetector: the race detector's shadow memory multiplies the RSS,
// so memory bounds are not checked under it.
const raceDetector = true
