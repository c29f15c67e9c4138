export function ExpiryBadge({ days }: { days: number }) {
  return null;
}
