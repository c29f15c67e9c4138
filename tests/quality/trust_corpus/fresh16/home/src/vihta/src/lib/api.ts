export const API_BASE = import.meta.env.LAUTEET_API ?? "https://staging-api.saunalempi.fi";
