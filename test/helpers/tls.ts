/** A throw-away self-signed certificate for 127.0.0.1, made with openssl for each test run. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  fingerprint: string;
}

/** `dnsNames`: host names the certificate is also valid for (a test resolver maps them to 127.0.0.1). */
export function makeCertificate(dir = mkdtempSync(join(tmpdir(), 'risklookup-tls-')), name = 'server', dnsNames: readonly string[] = []): TestCertificate {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      `subjectAltName=${['IP:127.0.0.1', ...dnsNames.map((n) => `DNS:${n}`)].join(',')}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, fingerprint: new X509Certificate(readFileSync(certFile)).fingerprint256 };
}
