// A worker thread's entry: TypeScript is loaded through tsx (as the process itself is), then the module named in
// `workerData.module` (a file URL) runs. A thread does not inherit the process's loader, so it registers its own.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
