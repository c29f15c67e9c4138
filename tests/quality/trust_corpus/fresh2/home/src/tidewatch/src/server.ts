import Fastify from "fastify";
import { berthRoutes } from "./routes/berths.js";
import { bookingRoutes } from "./routes/bookings.js";

const app = Fastify({ logger: true });
app.register(berthRoutes, { prefix: "/api/berths" });
app.register(bookingRoutes, { prefix: "/api/bookings" });

const port = Number(process.env.PORT ?? 4100);
await app.listen({ port, host: "0.0.0.0" });
