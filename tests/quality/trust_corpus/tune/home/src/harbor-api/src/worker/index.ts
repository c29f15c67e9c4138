import { Worker } from 'bullmq';
import { exportInvoices } from '../export/csv.js';
import { pollCarrier } from '../jobs/carrier-poll.js';

const connection = { url: process.env.REDIS_URL };
new Worker('exports', exportInvoices, { connection, concurrency: 2 });
new Worker('carrier-poll', pollCarrier, { connection, concurrency: 4 });
