/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
export const up = (pgm) => {
  pgm.createTable('shipments', {
    id: 'id',
    tenant_id: { type: 'uuid', notNull: true },
    reference: { type: 'text', notNull: true },
    created_at: { type: 'timestamptz', notNull: true, default: pgm.func('now()') },
  });
};

export const down = (pgm) => pgm.dropTable('shipments');
