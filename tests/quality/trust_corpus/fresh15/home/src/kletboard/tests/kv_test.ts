// Key shapes of lib/kv.ts against an in-memory KV.
