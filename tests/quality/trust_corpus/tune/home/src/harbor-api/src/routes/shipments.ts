import type { FastifyInstance } from 'fastify';
import { listShipmentsQuery } from '../schemas/shipment.js';

export async function shipmentRoutes(app: FastifyInstance) {
  app.get('/', async (request) => {
    const { cursor, limit } = listShipmentsQuery.parse(request.query);
    const [createdAt, id] = cursor ? Buffer.from(cursor, 'base64').toString().split('|') : [null, null];
    const { rows } = await request.db.query(
      `SELECT * FROM shipments WHERE ($1::timestamptz IS NULL OR (created_at, id) < ($1, $2))
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [createdAt, id, limit],
    );
    return { items: rows };
  });
}
