import { stringify } from 'csv-stringify/sync';
import type { Job } from 'bullmq';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function exportInvoices(job: Job<any>) {
  const rows = job.data.rows.map((r: any) => [r.invoice_id, r.shipment_ref, (r.amount_cents / 100).toFixed(2)]);
  return stringify(rows, { delimiter: job.data.delimiter ?? ',' });
}
