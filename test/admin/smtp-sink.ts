/**
 * A real SMTP server on 127.0.0.1 for the release tests (the `smtp-server`
 * package): it offers STARTTLS (its built-in self-signed certificate) and
 * AUTH PLAIN/LOGIN, accepts any user, and keeps each message it takes with
 * its envelope, whether the session was encrypted, and the user.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Caught {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | undefined;
}

export interface Sink {
  port: number;
  url(user?: string, pass?: string): string;
  messages: Caught[];
  close(): Promise<void>;
}

/** Starts the sink; `refuse`: a recipient address it answers 550 to. */
export async function startSink(opts: { refuse?: string } = {}): Promise<Sink> {
  const messages: Caught[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      cb(null, { user: auth.username });
    },
    onRcptTo(address, _session, cb) {
      if (opts.refuse && address.address === opts.refuse) {
        const err = Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 });
        cb(err);
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        cb(null, 'OK queued as test');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    // The sink's certificate is self-signed: the client is told to accept it (a nodemailer URL option).
    url: (user = 'dev', pass = 'secret') => `smtp://${user}:${pass}@127.0.0.1:${port}/?tls.rejectUnauthorized=false`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
