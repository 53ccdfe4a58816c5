// Package controlplane keeps one P4Runtime switch programmed with the
// balancer's desired state.
//
// A Session owns the connection: it dials (plain, TLS or mutual TLS), opens
// the stream and arbitrates with its election id and role. As primary it
// makes sure the switch runs the balancer pipeline (pushing it when the
// switch has none or another one, judged by the cookie), then reconciles:
// it reads back every table and value set the compiler owns, diffs them
// with the desired entities and writes only the difference, in batches.
// It does this after every (re)connect, so a restarted switch, which keeps
// nothing, gets the pipeline and every entry back, and a restarted
// controller in front of a programmed switch writes nothing.
//
// As backup it keeps its stream, never writes, and when the switch says the
// primary is gone it bids a higher election id and takes over.
//
// The session stays honest about the switch (docs/controlplane.md): every
// RPC has a deadline (Timing); a liveness probe and HTTP/2 keepalives
// notice a switch that keeps its connection but stops answering, which is
// handled as a lost connection (Status.Stalled, ErrStalled); a failed
// write is retried on a timer until the desired state is on the switch
// (Status.Pending); a periodic read-back repairs what changed behind the
// session's back. Reads run on a second connection, so a large read never
// delays a write.
//
// Lifecycle: New starts nothing; Run blocks, reconnecting with exponential
// backoff (back to the minimum after a connection the switch answered)
// until its context ends (it never exits the process on a dropped
// stream); writes are handed to Run's goroutine, which alone touches the
// session state, and return its result; Read and PacketOut do not wait
// for it.
package controlplane
