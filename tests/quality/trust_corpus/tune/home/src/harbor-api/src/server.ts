import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { authPlugin } from './plugins/auth.js';
import { tenancyPlugin } from './plugins/tenancy.js';
import { shipmentRoutes } from './routes/shipments.js';
import { healthRoutes } from './routes/health.js';
import { gateway } from './ws/gateway.js';

const app = Fastify({ logger: true, bodyLimit: 1_048_576 });
await app.register(websocket);
await app.register(authPlugin);
await app.register(tenancyPlugin);
await app.register(healthRoutes);
await app.register(shipmentRoutes, { prefix: '/shipments' });
await app.register(gateway, { prefix: '/ws' });

await app.listen({ port: Number(process.env.PORT ?? 3000), host: '0.0.0.0' });
