export async function maerskToken(): Promise<string> {
  const res = await fetch('https://api.maersk.com/customer-identity/oauth/v2/access_token', { method: 'POST' });
  return (await res.json()).access_token;
}
