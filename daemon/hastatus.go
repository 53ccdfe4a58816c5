package daemon

// HAStatus is the shared store and the leader election of the daemons of
// one switch (Options.HAStatus; absent with the state directory).
type HAStatus struct {
	// Store says where the state lives ("etcd <prefix>").
	Store string
	// StoreHealthy: the store answered just now; else StoreError says why.
	StoreHealthy bool
	StoreError   string
	// Name is this daemon's name in the election; Leader whether it leads.
	Name   string
	Leader bool
	// LeaderName is the leading daemon's name ("" when none).
	LeaderName string
	Standbys   []string
}
