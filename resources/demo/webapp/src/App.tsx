import { ThemeToggle } from "./components/ThemeToggle";

export function App() {
  return (
    <main className="bg-surface">
      <ThemeToggle />
    </main>
  );
}
