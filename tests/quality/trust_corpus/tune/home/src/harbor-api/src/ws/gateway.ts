import type { FastifyInstance } from 'fastify';
import { parseClientMessage } from './messages.js';

const PING_MS = Number(process.env.WS_PING_INTERVAL_MS ?? 25_000);

export async function gateway(app: FastifyInstance) {
  app.get('/track', { websocket: true }, (socket) => {
    const timer = setInterval(() => socket.ping(), PING_MS);
    socket.on('message', (raw) => parseClientMessage(raw.toString()));
    socket.on('close', () => clearInterval(timer));
  });
}
