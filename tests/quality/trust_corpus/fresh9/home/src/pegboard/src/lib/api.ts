import { PUBLIC_API_BASE } from '$env/static/public';

export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(PUBLIC_API_BASE + path, { ...init, signal: AbortSignal.timeout(15000) });
  if (!response.ok) throw new Error(`${response.status} ${path}`);
  return response.json() as Promise<T>;
}
