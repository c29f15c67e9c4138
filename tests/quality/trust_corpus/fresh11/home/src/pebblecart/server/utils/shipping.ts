// server/utils/shipping.ts
