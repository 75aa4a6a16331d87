/**
 * The origin the quota links point at, when it is not the one the cabinet was opened at (issue 28 item 10): the
 * server makes links on PUBLIC_URL, and without it on http://localhost:PORT, which respondents elsewhere cannot
 * reach. Null when every link is on the cabinet's origin, or there are none.
 */
export function foreignLinkOrigin(links: readonly string[], cabinetOrigin: string): string | null {
  const here = originOf(cabinetOrigin);
  for (const link of links) {
    const origin = originOf(link);
    if (origin && origin !== here) return origin;
  }
  return null;
}

/** Scheme, host and port as the browser compares them (case and default ports aside); null when not a URL. */
function originOf(address: string): string | null {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}
