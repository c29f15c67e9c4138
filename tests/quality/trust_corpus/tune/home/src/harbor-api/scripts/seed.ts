import { pool } from '../src/db/client.js';

for (const tenant of ['acme', 'globex']) {
  await pool.query('INSERT INTO tenants (slug) VALUES ($1) ON CONFLICT DO NOTHING', [tenant]);
}
await pool.end();
