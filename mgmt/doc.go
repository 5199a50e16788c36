// Package mgmt is the forwarder's management: the subset of NFD's
// management protocol that applications and operators use, with NFD's
// names, status codes and ndnd's TLV types (std/ndn/mgmt_2022). It is
// protocol logic only, sans-IO like fw: it never reads the wall clock,
// starts goroutines or touches sockets.
//
// # Attaching it
//
// New attaches a Manager to a fw.Forwarder as an internal local face (with
// local fields on, so the forwarder tells it each requester's face in
// Packet.IncomingFaceID) and routes /localhost/nfd and /localhop/nfd to
// it, so the forwarder delivers management Interests through its FIB as
// NFD does. The manager answers through the same face (Forwarder.Receive)
// in a zero-delay callback of the forwarder's scheduler, never inside a
// forwarding pipeline. The runtime gives it its face table as a Faces
// (List, Create, Destroy); when the forwarder removes a face
// (Forwarder.RemoveFace), the manager's RIB forgets its routes before the
// face's ID can be reused (Forwarder.OnFaceRemoved).
//
// # What it serves (one file per NFD module)
//
//   - rib (rib.go, RIB in ribtable.go): register, unregister, the rib/list
//     dataset; also under /localhop/nfd, which ndnd's tools use over TCP.
//     The RIB computes the FIB's nexthops as NFD does (ChildInherit,
//     Capture, lowest cost per face) and expires routes with an
//     ExpirationPeriod. It holds the manager's own <top>/rib routes, as
//     NFD's does.
//   - faces (faces.go): create (udp4 and tcp4 canonical FaceUris, through
//     Faces.Create), destroy, the faces/channels dataset (the runtime's
//     listeners, when its Faces implements Channels), the faces/query
//     dataset (a FaceQueryFilter after the verb), and the faces/list dataset with NFD's
//     FaceStatus fields, the forwarder's per-face packet counters, and
//     three ndncc fields after NFD's: NCongestionMarked (0xd0), NQueueDrops
//     (0xd2) and QueueLength (0xd4).
//   - fib (fib.go): add-nexthop, remove-nexthop, the fib/list dataset.
//   - strategy-choice (strategychoice.go): set, unset, the
//     strategy-choice/list dataset; best-route and multicast carry NFD's
//     names and versions (/localhost/nfd/strategy/best-route/v=5), ndncc's
//     own strategies version 1; NFD's default choices for /localhost,
//     /localhost/nfd and /ndn/broadcast are made at start.
//   - cs (cs.go): config (capacity, admit and serve flags), the cs/info
//     dataset.
//   - status (status.go): the status/general dataset.
//
// Status datasets are segmented and versioned as NFD publishes them
// (dataset.go).
//
// # Security policy
//
// What the manager checks, in order (dispatch.go):
//
//  1. the name, under /localhost/nfd or /localhop/nfd (the prefixes routed
//     to the manager; anything else is dropped), names a module and a verb
//     (400 "Malformed command" otherwise);
//  2. the Interest came from a local face: the forwarder's FaceLocal kind
//     of the face in IncomingFaceID (403 "authorization rejected"
//     otherwise). Whether a face is local is the runtime's decision when
//     it adds the face to the forwarder: `ndncc fw` counts only the faces
//     of its Unix socket (and this manager's own) as local, never a UDP or
//     TCP face, loopback address or not (NFD never counts UDP as local;
//     it does count loopback TCP). The forwarder's scope control (package
//     fw) drops a /localhost Interest from a network face before it gets
//     here;
//  3. the module and verb exist, and only rib is served under
//     /localhop/nfd (501 "Unknown module" / "Unknown verb");
//  4. for a command, the ControlParameters name component decodes (400
//     "Malformed command");
//  5. the command is signed in a format NFD accepts: a signed Interest in
//     the NDN packet format v0.3 (an InterestSignatureInfo and
//     InterestSignatureValue, the ParametersSha256Digest matching), or the
//     older format with a timestamp, nonce, SignatureInfo and
//     SignatureValue as the name's last four components (legacysig.go;
//     python-ndn 0.5); 401 "Signature required" otherwise. A DigestSha256
//     signature verifies (403). Other
//     signature types are accepted without verification, as NFD's default
//     configuration accepts any signer; there is no certificate, timestamp
//     or replay check;
//  6. the fields are those NFD's command allows and requires (400 "failed
//     in validating parameters"), then the command's own checks (410
//     "Face not found", 404 "Strategy not registered", 414 for prefixes
//     over 32 components, 406 and 400 for face URIs).
//
// Datasets need no signature but the same local face. Every refusal is
// answered with a ControlResponse; nothing in a request can make the
// manager panic (FuzzManagerRequest, FuzzLegacySignedCommand).
package mgmt
