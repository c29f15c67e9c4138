import type { FastifyInstance } from "fastify";

export async function bookingRoutes(app: FastifyInstance) {
  app.get("/", async (request) => listBookings(app, request.query));
}
