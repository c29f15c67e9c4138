export async function fetchAnnouncements(token: string, databaseId: string) {
  return fetch(`https://api.notion.com/v1/databases/${databaseId}/query`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Notion-Version": "2022-06-28" },
  });
}
