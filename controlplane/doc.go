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
// Lifecycle: New starts nothing; Run blocks, reconnecting with exponential
// backoff until its context ends (it never exits the process on a dropped
// stream); every other method hands work to Run's goroutine, which alone
// touches the session state, and returns its result.
package controlplane
