import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// In development the SPA runs on Vite and the API on the server (npm run dev), proxied here.
const API = process.env.EMOLENS_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/healthz', '/mediaserver', '/report_builder', '/r/', '/engine-assets'].map((p) => [p, API]),
    ),
  },
  // The face engine's worker (privacy mode) is a module: onnxruntime-web loads its wasm glue with import().
  worker: { format: 'es' },
  // onnxruntime-web's build that takes its wasm and glue from `wasmPaths` (the server's /engine-assets/ort), not the
  // one that references its 14 MB wasm beside the bundle, which would be emitted into dist and never fetched.
  resolve: { conditions: ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    sourcemap: true, // The lazily loaded face engine (Human with TensorFlow.js) is ~1.6 MB on its own.
    chunkSizeWarningLimit: 1700,
  },
});
