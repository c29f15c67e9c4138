import type { paths } from "./schema";

export async function refresh(): Promise<paths["/auth/refresh"]["post"]> {
  const response = await fetch("/api/auth/refresh", { method: "POST", credentials: "include" });
  return response.json();
}
