import { PrismaClient } from "@prisma/client";

const prisma = new PrismaClient();
await prisma.berth.createMany({ data: [{ code: "A1", length: 12 }] });
