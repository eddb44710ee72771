// CPU µs per request in the server process (client in a child), for the emulator and the express ceiling.
import { spawn } from 'node:child_process';
const { startServer } = await import('../dist/src/index.js');
const { startCeilings } = await import('./ceilings.js');
const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const email = { from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello <a href="https://example.com">there</a></p>' };
const auth = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
for (let i = 0; i < 120; i++) await fetch(`${emu.url}/emails`, { method: 'POST', headers: auth, body: JSON.stringify(email) });
const page = await (await fetch(`${emu.url}/emails?limit=100`, { headers: auth })).json();
const c = await startCeilings(page.data);
const N = Number(process.env.N ?? 4000);
async function cpu(url, method, headers, body) {
  const args = ['node_modules/autocannon/autocannon.js', '-c', '10', '-a', String(N), '-m', method, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), ...(body ? ['-b', body] : []), url];
  const before = process.cpuUsage();
  await new Promise((r) => spawn(process.execPath, args, { stdio: 'ignore' }).on('exit', r));
  const d = process.cpuUsage(before);
  return (d.user + d.system) / N;
}
for (let r = 0; r < Number(process.env.R ?? 2); r++) {
  const ep = await cpu(`${c.expressUrl}/emails`, 'POST', { 'content-type': 'application/json' }, JSON.stringify(email));
  const s = await cpu(`${emu.url}/emails`, 'POST', auth, JSON.stringify(email));
  const el = await cpu(`${c.expressUrl}/emails`, 'GET', {});
  const l = await cpu(`${emu.url}/emails?limit=100`, 'GET', { authorization: auth.authorization });
  console.log(`cpu µs/req: POST emu ${s.toFixed(0)} vs express ${ep.toFixed(0)} (ratio thr ~${(ep / s).toFixed(2)}); LIST emu ${l.toFixed(0)} vs express ${el.toFixed(0)} (~${(el / l).toFixed(2)})`);
}
await emu.close(); await c.close();
