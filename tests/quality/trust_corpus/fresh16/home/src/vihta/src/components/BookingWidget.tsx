import { useState } from "preact/hooks";

export default function BookingWidget() {
  const [people, setPeople] = useState(1);
  return <button onClick={() => setPeople(people + 1)}>Varaa ({people})</button>;
}
