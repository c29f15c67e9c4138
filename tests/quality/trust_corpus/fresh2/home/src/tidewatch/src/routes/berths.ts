import type { FastifyInstance } from "fastify";

export async function berthRoutes(app: FastifyInstance) {
  app.get("/", async () => app.prisma.berth.findMany({ orderBy: { code: "asc" } }));
}
