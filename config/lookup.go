package config

import "slices"

// LinkByName returns the link called name, or nil.
func (c *Config) LinkByName(name string) *Link {
	for i := range c.Links {
		if c.Links[i].Name == name {
			return &c.Links[i]
		}
	}
	return nil
}

// FilterGroupByName returns the filter group called name, or nil.
func (c *Config) FilterGroupByName(name string) *FilterGroup {
	for i := range c.FilterGroups {
		if c.FilterGroups[i].Name == name {
			return &c.FilterGroups[i]
		}
	}
	return nil
}

// BalanceGroupByName returns the balance group called name, or nil.
func (c *Config) BalanceGroupByName(name string) *BalanceGroup {
	for i := range c.BalanceGroups {
		if c.BalanceGroups[i].Name == name {
			return &c.BalanceGroups[i]
		}
	}
	return nil
}

// ProfileByName returns the availability profile called name, or nil.
// After ApplyDefaults the built-in "default" profile is always there.
func (c *Config) ProfileByName(name string) *Profile {
	for i := range c.Profiles {
		if c.Profiles[i].Name == name {
			return &c.Profiles[i]
		}
	}
	return nil
}

// BalanceGroupOf returns the balance group that has the filter group called
// filterGroup as a member, or nil.
func (c *Config) BalanceGroupOf(filterGroup string) *BalanceGroup {
	for i := range c.BalanceGroups {
		for _, m := range c.BalanceGroups[i].Members {
			if m == filterGroup {
				return &c.BalanceGroups[i]
			}
		}
	}
	return nil
}

// BalanceGroupWith returns the balance group that has the filter group
// called filterGroup as a member or as a spare, or nil.
func (c *Config) BalanceGroupWith(filterGroup string) *BalanceGroup {
	if b := c.BalanceGroupOf(filterGroup); b != nil {
		return b
	}
	for i := range c.BalanceGroups {
		if slices.Contains(c.BalanceGroups[i].Spares, filterGroup) {
			return &c.BalanceGroups[i]
		}
	}
	return nil
}

// Action is the balance group's failure action: its own, else its
// profile's, else bypass.
func (c *Config) Action(b *BalanceGroup) FailureAction {
	if b.FailureAction != "" {
		return b.FailureAction
	}
	if p := c.ProfileByName(b.Profile); p != nil && p.FailureAction != "" {
		return p.FailureAction
	}
	return FailBypass
}

// TotalCores is the sum of the cores of the balance group's members that
// exist.
func (c *Config) TotalCores(b *BalanceGroup) uint32 {
	var n uint32
	for _, m := range b.Members {
		if f := c.FilterGroupByName(m); f != nil {
			n += f.Cores
		}
	}
	return n
}
