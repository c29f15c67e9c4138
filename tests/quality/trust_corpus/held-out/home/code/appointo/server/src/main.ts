import fastify from 'fastify';

const app = fastify({ logger: true });
await app.listen({ port: Number(process.env.PORT ?? 4000) });
