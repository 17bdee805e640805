#!/usr/bin/env node
// Puts the sign-in screen's markup into the built login.html, once per address it answers
// (/login, /register) and version flag (formal shows 正式版), so the form paints from the HTML:
// login.html, register.html, login.formal.html, register.formal.html. The server picks one and
// fills the placeholders (__PRODUCT_TITLE__, __YEAR__) at start. Runs after both Vite builds.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const web = path.resolve(import.meta.dirname, '..');
const dist = path.join(web, 'dist');
const bundle = path.join(web, 'dist-prerender');
const { renderSignIn } = await import(pathToFileURL(path.join(bundle, 'prerender.js')).href);
const template = readFileSync(path.join(dist, 'login.html'), 'utf8');
if (!template.includes('<!--sign-in-->')) throw new Error('login.html has no <!--sign-in--> slot');

for (const address of ['/login', '/register']) {
  for (const flag of ['', 'formal']) {
    const html = template
      .replace('<!--sign-in-->', renderSignIn(address, flag))
      .replace('__PRERENDERED__', address)
      .replace('__SERVER_FLAG__', flag)
      .replace('<title>登录 - ', address === '/register' ? '<title>注册 - ' : '<title>登录 - ');
    writeFileSync(path.join(dist, `${address.slice(1)}${flag ? `.${flag}` : ''}.html`), html);
  }
}
rmSync(bundle, { recursive: true, force: true });
console.log('prerendered /login and /register');
