export async function trackDhl(tenantId: string) {
  const res = await fetch('https://api-eu.dhl.com/track/shipments', {
    headers: { 'DHL-API-Key': process.env.DHL_API_KEY ?? '' },
  });
  if (res.status === 429) throw new Error(`rate limited, retry after ${res.headers.get('retry-after')}`);
  return { tenantId, body: await res.json() };
}
