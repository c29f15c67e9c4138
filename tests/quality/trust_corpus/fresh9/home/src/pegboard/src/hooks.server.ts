import type { Handle } from '@sveltejs/kit';

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.memberId = event.cookies.get('member') ?? null;
  return resolve(event);
};
