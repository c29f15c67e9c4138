import { refreshAll } from "../src/lib/tides-refresh.js";

await refreshAll({ days: 14 });
