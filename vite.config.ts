import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

export default defineConfig({
  root: "src/web",
  // Brotli and gzip copies of every asset, served by the server as the browser accepts them.
  plugins: [react(), tailwindcss(), compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/\.map$/] })],
  // No source maps in the build operators are served (they would hand out the source); the
  // benchmark builds with `vite build --sourcemap` to attribute the bundle's bytes to packages.
  build: {
    outDir: "../../dist/web", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600,
    // TanStack Query is its own chunk (preloaded beside the entry), so that the entry script holds
    // the app's start-up code only, whatever screens share.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "tanstack-query", test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ }] } } },
  },
  server: { port: 5173, proxy: { "/api": "http://localhost:3000" } },
});
