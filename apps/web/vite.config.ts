import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
  build: {
    outDir: 'dist',
    sourcemap: true, // The lazily loaded face engine (Human with TensorFlow.js) is ~1.6 MB on its own.
    chunkSizeWarningLimit: 1700,
  },
});
