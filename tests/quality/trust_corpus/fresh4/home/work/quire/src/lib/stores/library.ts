import { writable } from 'svelte/store';

export const library = writable([]);
