import { createHmac, timingSafeEqual } from 'node:crypto';

export async function verify(token: string): Promise<{ sub: string; tenant: string } | null> {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return null;
  const expected = createHmac('sha256', process.env.JWT_SECRET ?? '').update(`${head}.${body}`).digest('base64url');
  if (!timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) return null;
  return JSON.parse(Buffer.from(body, 'base64url').toString());
}
