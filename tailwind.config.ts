import type { Config } from "tailwindcss";

// Theme tokens; Tailwind v4 reads this file through `@config` in app/globals.css.
export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { 50: "#eef6ff", 500: "#1f6feb", 700: "#1550b0", 900: "#0b2a5c" },
      },
    },
  },
} satisfies Config;
