//go:build !linux

package face

// kernelBacklog is unknown outside Linux: the backlog marker then sees
// the forwarder's own queue and the writer's pending bytes only.
func kernelBacklog(conn any, scheme string) (func() int, int) { return nil, 0 }

// directWriter is Linux-only: elsewhere every batch goes through the
// face's writer goroutine.
func directWriter(conn any) func(iov [][]byte) (int, error) { return nil }

// ReceiveQueue is unknown outside Linux (nil): live's catch-up after a
// stall then waits only for the input its readers already took.
func ReceiveQueue(conn any) func() int { return nil }
