import { addHours } from "date-fns";

export type TideWindow = { opens: Date; closes: Date };

export function arrivalWindow(highWater: Date, drying: boolean): TideWindow {
  const hours = drying ? 1 : 2;
  return { opens: addHours(highWater, -hours), closes: addHours(highWater, hours) };
}
