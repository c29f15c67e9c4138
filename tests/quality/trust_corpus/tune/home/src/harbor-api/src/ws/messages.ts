import { z } from 'zod';

export const subscribe = z.object({ type: z.literal('subscribe'), bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]) });
export const position = z.object({ id: z.string(), lat: z.number(), lon: z.number(), status: z.string(), ts: z.number() });

export function parseClientMessage(raw: string) {
  return subscribe.safeParse(JSON.parse(raw));
}
