import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: "src/web",
  plugins: [react(), tailwindcss()],
  build: { outDir: "../../dist/web", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 600 },
  server: { port: 5173, proxy: { "/api": "http://localhost:3000" } },
});
