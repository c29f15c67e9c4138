// Exports KV to the B2 bucket.
