import fp from 'fastify-plugin';
import { pool } from '../db/client.js';

export const tenancyPlugin = fp(async (app) => {
  app.decorateRequest('db', null);
  app.addHook('preHandler', async (request) => {
    if (!request.tenantId) return;
    request.db = await pool.connect();
    await request.db.query('SELECT set_config($1, $2, true)', ['app.tenant_id', request.tenantId]);
  });
});
