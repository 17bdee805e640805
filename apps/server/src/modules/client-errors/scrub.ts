/**
 * Takes secrets out of a reported error's text before it is stored: whatever looks like a bearer
 * token, an `Authorization` value, an app secret (`sk_…`), a key=value secret (appSecret, token,
 * password…), a session token (43 base64url characters) or a 256-bit hex string becomes HIDDEN.
 * Errors are for reading, not for keys: a false positive costs a few characters of a message.
 */
export const HIDDEN = '[已隐藏]';

const B64 = 'A-Za-z0-9_\\-';
const RULES: [RegExp, string][] = [
  // Authorization: <value> / "authorization":"<value>" / authorization=<value> (the whole value,
  // scheme and all, up to a quote, comma, semicolon, ampersand or line end).
  [/(authorization["']?\s*[:=]\s*["']?)[^"'\n,;&]+/gi, `$1${HIDDEN}`],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]+/gi, `Bearer ${HIDDEN}`],
  // appSecret / app_secret / x-app-secret / secret / token / password / apiKey = or : value.
  [
    /((?:x-)?(?:app[_-]?secret|app[_-]?key|api[_-]?key|secret|token|access[_-]?token|password|passwd)["']?\s*[:=]\s*["']?)[^"'\s,;&]+/gi,
    `$1${HIDDEN}`,
  ],
  [new RegExp(`\\bsk_[${B64}]{6,}`, 'g'), `sk_${HIDDEN}`],
  [/(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g, HIDDEN],
  // A session token: 32 random bytes as base64url (43 characters with a digit and a letter).
  [new RegExp(`(?<![${B64}])(?=[${B64}]*\\d)(?=[${B64}]*[A-Za-z])[${B64}]{43}(?![${B64}])`, 'g'), HIDDEN],
];

// Control characters other than tab and newline are not kept (a log is read as text).
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function scrubSecrets(text: string): string {
  let out = text.replace(CONTROL, ' ');
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/** The path of a page address: no scheme, host, query string or fragment. */
export function pathOnly(source: string, max: number): string {
  let path = source.trim();
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length);
  path = path.split(/[?#]/, 1)[0] ?? '';
  if (path !== '' && !path.startsWith('/')) path = `/${path}`;
  return scrubSecrets(path).slice(0, max);
}
