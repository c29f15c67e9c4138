describe('pantry', () => { it('adds an item', async () => {}); });
