// Tests use a few Debian packages (Chromium for browser tests, scikit-image's sample photos for the
// face engine, LibreOffice and poppler to open generated presentations). Installs the missing ones when running as root; otherwise stops with the command.
// Usage: node scripts/ensure-packages.mjs chromium python3-skimage
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What proves each package is installed. */
const MARKERS = {
  chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  'python3-skimage': '/usr/lib/python3/dist-packages/skimage/data/astronaut.png',
  ffmpeg: '/usr/bin/ffmpeg',
  // The report-file tests open a generated presentation in LibreOffice and read its pages with poppler.
  'libreoffice-impress': '/usr/bin/soffice',
  'poppler-utils': '/usr/bin/pdftoppm',
};

export function ensurePackages(names) {
  const missing = names.filter((name) => {
    const marker = MARKERS[name];
    if (!marker) throw new Error(`Unknown package ${name}`);
    return !existsSync(marker);
  });
  if (missing.length === 0) return;
  const install = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() === 0) {
    console.warn(`Installing ${missing.join(', ')} for the tests: ${install}`);
    execSync(install, {
      stdio: 'inherit',
      shell: '/bin/bash',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return;
  }
  throw new Error(
    `The tests need ${missing.join(', ')}. Install with:\n\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensurePackages(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
