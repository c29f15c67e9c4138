import fp from 'fastify-plugin';
import { verify } from './jwt.js';

export const authPlugin = fp(async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public) return;
    const header = request.headers.authorization ?? '';
    const claims = await verify(header.replace(/^Bearer /, ''));
    if (!claims) return reply.code(401).send({ error: 'unauthorized' });
    request.user = claims;
    request.tenantId = claims.tenant;
  });
});
