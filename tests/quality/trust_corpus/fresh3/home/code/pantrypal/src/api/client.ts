export const baseUrl = process.env.EXPO_PUBLIC_API_URL ?? 'http://localhost:8081';
