import { describe, it } from '@jest/globals';

describe('annotations', () => { it.todo('round-trips a CFI'); });
