// server/api/checkout.post.ts
