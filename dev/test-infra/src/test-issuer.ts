/**
 * @module test-issuer
 * A minimal OAuth issuer on 127.0.0.1 for tests that need many signed-in users at once: it
 * publishes RFC 8414 metadata and a JWKS, and mints RFC 9068 access tokens (RS256, `at+jwt`) for
 * any subject and scopes. It speaks the same wire format as the workshop's authorization server,
 * which knows only a fixed handful of users; tests that need a few real ones use that one instead.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface TestIssuer {
  issuer: string;
  /**
   * An access token for `resource`, for `subject`, with `scopes`, living `ttlSeconds`, issued to
   * `clientId` (default `test-client`). Any subject is signed, the empty one included: the server
   * under test decides what to accept.
   */
  token(options: {
    subject: string;
    resource: string;
    scopes?: readonly string[];
    ttlSeconds?: number;
    clientId?: string;
  }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-issuer-key', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration') {
      send({
        issuer,
        jwks_uri: `${issuer}/jwks`,
        token_endpoint: `${issuer}/token`,
        authorization_endpoint: `${issuer}/authorize`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
      return;
    }
    if (path === '/jwks') {
      send({ keys: [jwk] });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    token: ({ subject, resource, scopes = [], ttlSeconds = 600, clientId = 'test-client' }) =>
      new SignJWT({ client_id: clientId, scope: scopes.join(' ') })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid })
        .setIssuer(issuer)
        .setAudience(resource)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
