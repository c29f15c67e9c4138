import { pool } from '../src/db/client.js';

export async function truncateAll() {
  await pool.query('TRUNCATE shipments RESTART IDENTITY CASCADE');
}
