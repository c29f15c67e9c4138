// server/tasks/sync-products.ts
