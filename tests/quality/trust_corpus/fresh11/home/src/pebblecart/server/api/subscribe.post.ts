// server/api/subscribe.post.ts
