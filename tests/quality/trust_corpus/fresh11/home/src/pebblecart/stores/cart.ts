// stores/cart.ts
