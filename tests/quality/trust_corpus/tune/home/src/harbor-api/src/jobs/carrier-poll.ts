import type { Job } from 'bullmq';
import { trackDhl } from '../carriers/dhl.js';

export async function pollCarrier(job: Job<{ carrier: string; tenantId: string }>) {
  if (job.data.carrier === 'dhl') return trackDhl(job.data.tenantId);
}
