// server/api/stripe/webhook.post.ts
