// The chart island.
