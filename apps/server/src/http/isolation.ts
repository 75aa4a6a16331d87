/**
 * Cross-origin isolation of the respondent's page in privacy mode (decision 072): the page's headers, and the one a
 * script that may run as a worker of such a page must carry (Chromium refuses to start a worker without it from an
 * isolated page; for a page that is not isolated it changes nothing).
 */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'credentialless',
} as const;

export const WORKER_SCRIPT_HEADERS = {
  'cross-origin-embedder-policy': ISOLATION_HEADERS['cross-origin-embedder-policy'],
} as const;
