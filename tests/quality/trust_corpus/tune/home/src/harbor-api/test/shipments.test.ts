import { describe, expect, it } from 'vitest';
import { listShipmentsQuery } from '../src/schemas/shipment.js';

describe('listShipmentsQuery', () => {
  it('caps the page size at 200', () => {
    expect(() => listShipmentsQuery.parse({ limit: 500 })).toThrow();
  });
});
