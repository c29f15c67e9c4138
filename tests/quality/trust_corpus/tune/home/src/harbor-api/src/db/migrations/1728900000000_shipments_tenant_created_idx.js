export const shorthands = undefined;
export const noTransaction = true;

export const up = (pgm) => {
  pgm.createIndex('shipments', ['tenant_id', { name: 'created_at', sort: 'DESC' }, { name: 'id', sort: 'DESC' }], {
    name: 'shipments_tenant_created_idx',
    concurrently: true,
  });
};

export const down = (pgm) => pgm.dropIndex('shipments', [], { name: 'shipments_tenant_created_idx', concurrently: true });
