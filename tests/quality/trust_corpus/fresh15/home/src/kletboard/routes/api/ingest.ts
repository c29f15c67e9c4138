// POST batches of readings from the gateway.
