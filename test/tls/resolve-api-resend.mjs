// Loaded with `node --import` by test/tls/https.test.ts: resolves api.resend.com to 127.0.0.1 in
// that process only (as an /etc/hosts line would), so the child reaches the --tls listener by the
// real name and verifies the certificate against it. Every other name resolves as usual.
import dns from 'node:dns';

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  return lookup.call(this, hostname === 'api.resend.com' ? '127.0.0.1' : hostname, options, callback);
};
