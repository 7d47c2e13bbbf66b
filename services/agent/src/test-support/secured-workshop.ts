/**
 * @module test-support/secured-workshop
 * The workshop server with sign-in on, and the development authorization server it trusts, each as
 * its own process on loopback: what every sign-in test of the agent talks to.
 */
import { type AuthServerProcess, startAuthServerProcess } from '@mcp-workshop/auth-server/process';
import { freePort } from '@mcp-workshop/test-infra';
import { startWorkshopProcess, type WorkshopProcess } from './workshop-process.js';

export interface SecuredWorkshop {
  auth: AuthServerProcess;
  workshop: WorkshopProcess;
  close(): Promise<void>;
}

/** Starts both; the server's resource URL is its own `/mcp`, which the issuer may issue tokens for. */
export async function startSecuredWorkshop(): Promise<SecuredWorkshop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const auth = await startAuthServerProcess({ resources: [url] });
  try {
    const workshop = await startWorkshopProcess({
      PORT: String(port),
      MCP_AUTH_ISSUER: auth.issuer,
      MCP_RESOURCE_URL: url,
    });
    return {
      auth,
      workshop,
      close: async () => {
        await Promise.all([workshop.close(), auth.close()]);
      },
    };
  } catch (error) {
    await auth.close();
    throw error;
  }
}
