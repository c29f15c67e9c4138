import { useTheme } from "../state/theme";

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  document.documentElement.classList.toggle("dark", theme === "dark");
  return (
    <button type="button" onClick={toggle} aria-label="Toggle dark mode">
      {theme === "dark" ? "Light" : "Dark"}
    </button>
  );
}
