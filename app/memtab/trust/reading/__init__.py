"""What one sentence says of one thing, read by kind: the tool chosen for a job
(`tools`), a service's port, a product's version, a setting's value (`quantities`), and
where each holds (`scopes`) — the parts `trust.claims` makes its claims of."""
