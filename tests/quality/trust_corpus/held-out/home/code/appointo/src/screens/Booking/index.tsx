export function BookingScreen() {
  return null;
}
