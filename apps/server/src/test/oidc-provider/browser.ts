/**
 * A browser's part at the tests' provider, over HTTP: follows the authorization request's redirects with the
 * provider's cookies, fills its login form as a person would, and stops at the first redirect that leaves the
 * provider (the answer to the app's callback), which it returns.
 */
export async function signInAtProvider(authorizationUrl: string | URL, login: string): Promise<URL> {
  const start = new URL(authorizationUrl);
  const cookies = new Map<string, string>();
  let url = start;
  let method: 'GET' | 'POST' = 'GET';
  let body: string | undefined;
  let filled = false;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== start.origin) return next;
      url = next;
      method = 'GET';
      body = undefined;
      await response.body?.cancel();
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action || !html.includes('name="login"') || filled) {
      throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    }
    filled = true;
    url = new URL(action.replaceAll('&amp;', '&'), url);
    method = 'POST';
    body = new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString();
  }
  throw new Error('too many redirects at the provider');
}
