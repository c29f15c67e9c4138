export function ShoppingListScreen() {
  return null;
}
