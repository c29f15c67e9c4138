import { create } from 'zustand';
export const usePantry = create(() => ({ items: [] }));
