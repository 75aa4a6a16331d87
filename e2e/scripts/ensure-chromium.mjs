// Browser tests drive Debian's Chromium (Playwright's own browser download is not possible here).
// Installs it when missing and we are root; otherwise stops with the exact command to run.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.warn(`Chromium not found at ${CHROMIUM}: installing it (${INSTALL})`);
    execSync(INSTALL, {
      stdio: 'inherit',
      shell: '/bin/bash',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    console.error(
      `Chromium is needed for the browser tests. Install it with:\n\n  sudo ${INSTALL.replace('&& apt-get', '&& sudo apt-get')}\n`,
    );
    process.exit(1);
  }
}
