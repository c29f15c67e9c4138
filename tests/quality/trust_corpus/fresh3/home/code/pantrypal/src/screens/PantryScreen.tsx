export function PantryScreen() {
  return null;
}
