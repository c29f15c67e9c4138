import { api } from '$lib/api';

export async function load({ params }) {
  return { tool: await api(`/tools/${params.id}`) };
}
