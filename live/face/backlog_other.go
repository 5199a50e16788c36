//go:build !linux

package face

// kernelBacklog is unknown outside Linux: the backlog marker then sees
// the forwarder's own queue and the writer's pending bytes only.
func kernelBacklog(conn any, scheme string) (func() int, int) { return nil, 0 }
