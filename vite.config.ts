import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { compression } from "vite-plugin-compression2";

/**
 * Preloads the shell's chunk (and the chunks it imports) from index.html: every signed-in screen
 * needs it, and fetched beside the entry script a first visit no longer waits for the entry to run
 * before asking for it. The sign-in screen does not wait for it either way.
 */
function preloadShell(): Plugin {
  return {
    name: "pedal-preload-shell",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === "chunk");
        const shell = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("/shell/Shell.tsx")));
        if (!shell) return html;
        const files = [shell.fileName, ...shell.imports].filter((f) => !html.includes(`/${f}"`));
        return html.replace(
          /\n(\s*)<\/head>/,
          (_, indent: string) =>
            `${files.map((f) => `\n    <link rel="modulepreload" crossorigin href="/${f}">`).join("")}\n${indent}</head>`,
        );
      },
    },
  };
}

/**
 * The toasts' library (sonner) writes its stylesheet into a <style> element when it loads, which
 * the console's Content-Security-Policy (`style-src 'self'`, no inline styles) refuses. Its own
 * copy of that stylesheet (sonner/dist/styles.css) is imported by styles.css instead, served from
 * the console like the rest of the CSS, and the runtime insertion is taken out of its code.
 */
function sonnerStylesFromCss(): Plugin {
  return {
    name: "pedal-sonner-styles-from-css",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const out = code.replace(/^__insertCSS\(/m, "void (");
      if (out === code)
        throw new Error(
          "sonner no longer inserts its CSS the way pedal-sonner-styles-from-css expects: check vite.config.ts",
        );
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  root: "src/web",
  // Brotli and gzip copies of every asset, served by the server as the browser accepts them.
  plugins: [
    sonnerStylesFromCss(),
    react(),
    tailwindcss(),
    preloadShell(),
    compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/\.map$/] }),
  ],
  // No source maps in the build operators are served (they would hand out the source); the
  // benchmark builds with `vite build --sourcemap` to attribute the bundle's bytes to packages.
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Few, larger chunks: the browser opens at most six connections to the server, so a first visit
    // that asked for 24 files before the shell and 15–20 more for its screen waited in line for
    // them (a fresh browser's first screen showed its rows 1.15–1.37 s after navigation at
    // 1,000,200 users; 0.8–1.1 s now: README "Performance"). TanStack Query is its own chunk
    // preloaded beside the entry, so that the entry holds the app's start-up code only; `app` keeps
    // what the entry imports statically out of the groups below; `Shell` is the shell with the
    // modules it imports (icons, menus: screens that use them too import them from it), preloaded
    // by index.html; `screen-kit` holds what three or more screens share (the list screen kit, the
    // domain schemas with zod, TanStack Table, their icons), fetched with the first screen.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: "tanstack-query",
              test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
              priority: 3,
            },
            { name: "app", tags: ["$initial"], priority: 2 },
            { name: "Shell", test: /src[\\/]web[\\/]shell[\\/]Shell\.tsx$/, priority: 2 },
            {
              name: "screen-kit",
              test: /src[\\/](web[\\/](components|lib)|domain)[\\/]|node_modules[\\/](lucide-react|zod|@tanstack[\\/](react-table|table-core))[\\/]/,
              minShareCount: 3,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  // `npm run dev` (docs/development.md): Vite on DEV_PORT (5173) with hot reload, the API on PORT
  // (3000) behind its proxy. The web app's own modules under src/web/api (`/api/client.ts`) are
  // Vite's to serve, not the API's: a request for a source file skips the proxy.
  server: {
    port: Number(process.env.DEV_PORT ?? 5173),
    strictPort: true,
    proxy: {
      "/api": {
        target: `http://localhost:${process.env.PORT ?? 3000}`,
        bypass: (req) => (/^\/api\/[^?]*\.(?:tsx?|jsx?|css)(?:\?|$)/.test(req.url ?? "") ? req.url : undefined),
      },
    },
  },
});
