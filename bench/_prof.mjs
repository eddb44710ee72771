import { spawn } from 'node:child_process';
const { startServer } = await import(process.env.DIST + '/src/index.js');
const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const email = { from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello</p>' };
const args = ['node_modules/autocannon/autocannon.js', '-c', '10', '-a', '20000', '-m', 'POST', '-H', `authorization=Bearer ${emu.apiKey}`, '-H', 'content-type=application/json', '-b', JSON.stringify(email), `${emu.url}/emails`];
await new Promise((r) => spawn(process.execPath, args, { stdio: 'ignore' }).on('exit', r));
await emu.close();
